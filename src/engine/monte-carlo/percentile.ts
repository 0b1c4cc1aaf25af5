/**
 * The one percentile rule of the Monte Carlo: linear interpolation between the two nearest order statistics
 * (Hyndman and Fan's type 7, the default of numpy and of spreadsheets' PERCENTILE.INC). Of n sorted values x₀ … xₙ₋₁,
 * the p-th percentile (0 ≤ p ≤ 1) sits at h = (n − 1) · p: x⌊h⌋ + (h − ⌊h⌋) · (x⌊h⌋₊₁ − x⌊h⌋).
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  const low = sorted[below]!;
  if (below + 1 >= sorted.length) return low;
  const high = sorted[below + 1]!;
  // Equal neighbours give the value itself, not low + 0 · (high − low) with its rounding.
  return low === high ? low : low + (h - below) * (high - low);
}

export const PERCENTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

export interface Percentiles {
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

/** The five percentiles of `values`, which this sorts in place. */
export function percentilesOf(values: Float64Array): Percentiles {
  values.sort();
  const [p5, p25, p50, p75, p95] = PERCENTILES.map((p) => percentileOfSorted(values, p)) as [number, number, number, number, number];
  return { p5, p25, p50, p75, p95 };
}
