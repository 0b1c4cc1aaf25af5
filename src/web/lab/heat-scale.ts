/**
 * The heat map's colour scale: viridis (perceptually even, readable in grey and with the common colour-vision
 * deficiencies), dark for the lowest value of the objective and yellow for the highest.
 */
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [72, 40, 120],
  [62, 74, 137],
  [49, 104, 142],
  [38, 130, 142],
  [31, 158, 137],
  [53, 183, 121],
  [110, 206, 88],
  [181, 222, 43],
  [253, 231, 37],
];

export interface Scale {
  readonly min: number;
  readonly max: number;
}

/** The lowest and highest finite value, or undefined when there is none. */
export function scaleOf(values: readonly (number | null)[]): Scale | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return min <= max ? { min, max } : undefined;
}

/** Where a value sits on the scale, 0 to 1 (the middle when every value is the same). */
export function scalePosition(value: number, scale: Scale): number {
  if (scale.max === scale.min) return 0.5;
  return Math.min(1, Math.max(0, (value - scale.min) / (scale.max - scale.min)));
}

/** The colour at a position 0..1 of the scale, as `rgb(r, g, b)`, interpolated between the viridis stops. */
export function colourAt(position: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(position) ? position : 0));
  const scaled = clamped * (VIRIDIS.length - 1);
  const low = Math.floor(scaled);
  const high = Math.min(VIRIDIS.length - 1, low + 1);
  const t = scaled - low;
  const [r, g, b] = VIRIDIS[low]!.map((channel, index) => Math.round(channel + (VIRIDIS[high]![index]! - channel) * t)) as [number, number, number];
  return `rgb(${r}, ${g}, ${b})`;
}

/** A CSS gradient of the whole scale, low to high from left to right, for the legend. */
export function scaleGradient(): string {
  const stops = VIRIDIS.map((_, index) => `${colourAt(index / (VIRIDIS.length - 1))} ${Math.round((index / (VIRIDIS.length - 1)) * 100)}%`);
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
