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

/**
 * The five percentiles of `values`, which this reorders in place: only the order statistics the rule reads are put
 * in their sorted places (selection, not a sort: the Monte Carlo's bands need 101 columns of up to 10,000 values,
 * and sorting them was most of its time). The values read are those of a full sort, so the answer is too.
 */
export function percentilesOf(values: Float64Array): Percentiles {
  const needed = new Set<number>();
  for (const p of PERCENTILES) {
    const below = Math.floor((values.length - 1) * p);
    needed.add(below);
    if (below + 1 < values.length) needed.add(below + 1);
  }
  selectAll(values, [...needed].sort((a, b) => a - b), 0, needed.size, 0, values.length - 1);
  const [p5, p25, p50, p75, p95] = PERCENTILES.map((p) => percentileOfSorted(values, p)) as [number, number, number, number, number];
  return { p5, p25, p50, p75, p95 };
}

/**
 * Puts each order statistic ks[from..to) (ascending) in its place within values[lo..hi]: the middle one first, then
 * those below it on its left part and those above on its right, so each pass works on a smaller part.
 */
function selectAll(values: Float64Array, ks: readonly number[], from: number, to: number, lo: number, hi: number): void {
  if (from >= to) return;
  const mid = (from + to) >> 1;
  const k = ks[mid]!;
  select(values, k, lo, hi);
  selectAll(values, ks, from, mid, lo, k - 1);
  selectAll(values, ks, mid + 1, to, k + 1, hi);
}

/**
 * Puts the k-th smallest of values[lo..hi] at k, the smaller before it and the larger after it (Hoare's FIND, in
 * N. Wirth's form: the pivot is the value at k; ties are swapped, so equal values split evenly).
 */
function select(values: Float64Array, k: number, lo: number, hi: number): void {
  while (lo < hi) {
    const pivot = values[k]!;
    let i = lo;
    let j = hi;
    do {
      while (values[i]! < pivot) i++;
      while (pivot < values[j]!) j--;
      if (i <= j) {
        const v = values[i]!;
        values[i] = values[j]!;
        values[j] = v;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) lo = i;
    if (k < i) hi = j;
  }
}
