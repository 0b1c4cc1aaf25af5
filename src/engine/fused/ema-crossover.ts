/**
 * ema_crossover in one pass: the two EMA recursions, the crossing test, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (ema, crossSignals, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { crossing } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function emaCrossoverRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close } = bars;
  const n = close.length;
  const fastPeriod = params.fast_period!;
  const slowPeriod = params.slow_period!;
  if (!Number.isInteger(fastPeriod) || !Number.isInteger(slowPeriod) || fastPeriod < 1 || slowPeriod < 1) return null;
  // Both EMAs are reported from bar first − 1; the first crossing can be on bar `first`, the first fill after it.
  const first = Math.max(fastPeriod, slowPeriod);
  if (n <= first) return null;

  // As indicators.ts ema: seeded with the first close, e = x·k + e·(1 − k).
  const fastK = 2 / (fastPeriod + 1);
  const fastKeep = 1 - fastK;
  const slowK = 2 / (slowPeriod + 1);
  const slowKeep = 1 - slowK;
  let fastBefore = close[0]!;
  let slowBefore = close[0]!;
  for (let t = 1; t < first; t++) {
    fastBefore = close[t]! * fastK + fastBefore * fastKeep;
    slowBefore = close[t]! * slowK + slowBefore * slowKeep;
  }

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; ) {
    account.openBar(t, pending); // the fill at this bar's open
    // The bars up to the next close whose signal acts: the EMAs and the close's signal (as signals.ts
    // crossSignals); then their equity, nothing filling in between.
    const wanted = account.wanted;
    const start = t;
    do {
      const x = close[t]!;
      const fastNow = x * fastK + fastBefore * fastKeep;
      const slowNow = x * slowK + slowBefore * slowKeep;
      pending = crossing(fastBefore, slowBefore, fastNow, slowNow);
      fastBefore = fastNow;
      slowBefore = slowNow;
      t++;
    } while (t < n && (pending & wanted) === 0);
    account.hold(start, t);
  }
  return account; // finished by the caller (index.ts)
}
