import type { BarSeries } from '../engine/index.js';
/** One day of prices, as stored and as providers deliver it. `date` is `YYYY-MM-DD`. */
export interface Bar {
  readonly date: string;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** A symbol's bars in date order, column-wise in typed arrays: the engine's input type. */
export type { BarSeries } from '../engine/index.js';

export function barSeriesFromBars(bars: readonly Bar[]): BarSeries {
  const n = bars.length;
  const series = {
    dates: new Array<string>(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i += 1) {
    const bar = bars[i]!;
    series.dates[i] = bar.date;
    series.open[i] = bar.open;
    series.high[i] = bar.high;
    series.low[i] = bar.low;
    series.close[i] = bar.close;
    series.volume[i] = bar.volume;
  }
  return series;
}

/** Index of the first date `>= date` (dates ascending); `dates.length` when there is none. */
export function lowerBound(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The bars dated `from` to `to` (inclusive, `YYYY-MM-DD`). The price columns are views on the same
 * memory (`subarray`), so a slice of a cached series costs two binary searches and no copy of prices.
 */
export function sliceSeries(series: BarSeries, from: string, to: string): BarSeries {
  const { start, end } = periodRange(series, from, to);
  return sliceAt(series, start, end);
}

/** The indices [start, end) of the bars dated `from` to `to`. */
export function periodRange(series: BarSeries, from: string, to: string): { start: number; end: number } {
  const start = lowerBound(series.dates, from);
  return { start, end: Math.max(start, lowerBound(series.dates, `${to}\uffff`)) };
}

function sliceAt(series: BarSeries, start: number, end: number): BarSeries {
  if (start === 0 && end === series.dates.length) return series;
  return {
    dates: series.dates.slice(start, end),
    open: series.open.subarray(start, end),
    high: series.high.subarray(start, end),
    low: series.low.subarray(start, end),
    close: series.close.subarray(start, end),
    volume: series.volume.subarray(start, end),
  };
}

/**
 * Slices of one series, the last `capacity` ranges asked for kept: a period asked for again is the same
 * `BarSeries` object, so what is derived from it and memoized by identity (a backtest body's dates as JSON) is
 * reused, and its dates are not copied again.
 */
export class SeriesSlices {
  readonly #slices = new Map<string, BarSeries>();

  constructor(
    readonly series: BarSeries,
    private readonly capacity = 8,
  ) {}

  slice(from: string, to: string): BarSeries {
    const { start, end } = periodRange(this.series, from, to);
    const key = `${start}:${end}`;
    let slice = this.#slices.get(key);
    if (slice !== undefined) this.#slices.delete(key);
    else slice = sliceAt(this.series, start, end);
    this.#slices.set(key, slice);
    if (this.#slices.size > this.capacity) this.#slices.delete(this.#slices.keys().next().value!);
    return slice;
  }
}
