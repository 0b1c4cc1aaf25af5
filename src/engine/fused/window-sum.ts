/**
 * The start of a rolling double-double window sum (indicators.ts `rollingSums`) for a fused loop that carries it
 * on: the same operations in the same order, so every later window sum is bit for bit the indicator's.
 */
import { RENORMALISE } from '../indicators.js';

export interface WindowSumState {
  hi: number;
  lo: number;
  /** The next bar before whose step (hi, lo) is renormalised: period + k · RENORMALISE. */
  nextRenormalise: number;
}

/**
 * The sum (hi, lo) of the window ending at bar end − 1, after `rollingSums` has gone through bars 0 … end − 1 of
 * `values` with this period. Requires period ≤ end ≤ values.length.
 */
export function windowSumThrough(values: Float64Array, period: number, end: number): WindowSumState {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < period; i++) {
    const x = values[i]!;
    const s = hi + x;
    const b = s - hi;
    lo += hi - (s - b) + (x - b);
    hi = s;
  }
  let nextRenormalise = period;
  for (let i = period; i < end; i++) {
    if (i === nextRenormalise) {
      const s = hi + lo;
      const b = s - hi;
      lo = hi - (s - b) + (lo - b);
      hi = s;
      nextRenormalise += RENORMALISE;
    }
    const x = values[i]!;
    const y = values[i - period]!;
    const d = x - y;
    const bd = d - x;
    const ed = x - (d - bd) - (y + bd);
    const t = hi + d;
    const bt = t - hi;
    const et = hi - (t - bt) + (d - bt);
    lo += et + ed;
    hi = t;
  }
  return { hi, lo, nextRenormalise };
}
