import type { ReturnBin } from './types.js';

/** Bin widths tried in order, as m / scale with whole m and scale: 1, 2 and 5 × 10^k, from 0.1 % to 10,000 %. */
const WIDTHS: readonly (readonly [number, number])[] = [1000, 100, 10, 1]
  .flatMap((scale) => [1, 2, 5].map((m) => [m, scale] as const))
  .concat([[10, 1], [20, 1], [50, 1], [100, 1]]);
export const MAX_BINS = 20;

/**
 * A histogram of trade returns. The width is the first of 0.1 %, 0.2 %, 0.5 %, 1 %, 2 %, 5 %, 10 %, … that covers
 * every return in at most 20 bins; the edges are whole multiples of the width (so 0 is always an edge), each bin
 * holds from ≤ r < to, and the bins run without gaps from the lowest return's bin to the highest's (empty bins
 * included). No trades: no bins.
 */
export function tradeReturnBins(returns: readonly number[]): ReturnBin[] {
  if (returns.length === 0) return [];
  let low = Infinity;
  let high = -Infinity;
  for (const r of returns) {
    if (r < low) low = r;
    if (r > high) high = r;
  }
  for (const [m, scale] of WIDTHS) {
    const edge = (k: number) => (k * m) / scale; // the double nearest k × m / scale: edges print as their decimals
    const first = binOf(low, m, scale, edge);
    const last = binOf(high, m, scale, edge);
    if (last - first + 1 > MAX_BINS && m !== 100) continue;
    const bins: ReturnBin[] = [];
    for (let k = first; k <= last; k++) bins.push({ from: edge(k), to: edge(k + 1), count: 0 });
    for (const r of returns) bins[binOf(r, m, scale, edge) - first]!.count++;
    return bins;
  }
  return []; // not reached: the last width (100 = 10,000 %) is taken whatever the count
}

/** The k with edge(k) ≤ r < edge(k + 1), against the edges as they print (the division alone may be off by one). */
function binOf(r: number, m: number, scale: number, edge: (k: number) => number): number {
  let k = Math.floor((r * scale) / m);
  while (r < edge(k)) k--;
  while (r >= edge(k + 1)) k++;
  return k;
}
