/** The report's series prepared for drawing (pure): the rolling figures without their empty days, the histogram's bars. */

/** The days with a value, and those values: a rolling figure has none before its window fills (or with no variance). */
export function presentPoints(dates: readonly string[], values: readonly (number | null)[]): { dates: string[]; values: number[] } {
  const kept = { dates: [] as string[], values: [] as number[] };
  values.forEach((value, index) => {
    if (value === null || !Number.isFinite(value) || dates[index] === undefined) return;
    kept.dates.push(dates[index]!);
    kept.values.push(value);
  });
  return kept;
}

export interface HistogramBar {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** In the box's units: left edge, width, top and height. */
  readonly x: number;
  readonly width: number;
  readonly y: number;
  readonly height: number;
}

/** One bar per bin, side by side across `width`, each as tall as its count against the fullest bin's `height`. */
export function histogramBars(bins: readonly { from: number; to: number; count: number }[], width: number, height: number): HistogramBar[] {
  const most = Math.max(1, ...bins.map((bin) => bin.count));
  const each = bins.length === 0 ? 0 : width / bins.length;
  return bins.map((bin, index) => {
    const barHeight = (bin.count / most) * height;
    return { ...bin, x: index * each, width: each, y: height - barHeight, height: barHeight };
  });
}
