/**
 * buy_and_hold: the buy at the second bar's open (the first close's signal), then the equity of the held shares,
 * bar by bar, with no signal array; the drawdowns and metrics from the account's equity pass. Byte-identical to the
 * generic path (signals.ts, simulate, computeMetrics): the same operations in the same order (fused.test.ts).
 */
import { ENTER } from '../signals.js';
import type { BarSeries } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';

/** null when the generic path should run instead (a single bar: nothing can fill). */
export function buyAndHoldRun(bars: BarSeries, _params: unknown, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const n = bars.close.length;
  if (n < 2) return null;
  const account = new FusedAccount(bars, initialCapital, 1, model);
  account.step(1, ENTER); // the first close's ENTER fills at bar 1's open
  account.hold(2, n); // no later signal
  return account; // finished by the caller (index.ts)
}
