/**
 * sma_crossover in one pass: the two exact rolling window sums, the crossing test, the next-open fills, the equity,
 * its drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (sma, crossSignals, simulate, computeMetrics): every
 * value below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { RENORMALISE } from '../indicators.js';
import { crossing } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';
import { windowSumThrough } from './window-sum.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function smaCrossoverRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close } = bars;
  const n = close.length;
  const fastPeriod = params.fast_period!;
  const slowPeriod = params.slow_period!;
  if (!Number.isInteger(fastPeriod) || !Number.isInteger(slowPeriod) || fastPeriod < 1 || slowPeriod < 1) return null;
  // Both means are defined from bar first − 1; the first crossing can be on bar `first`, the first fill after it.
  const first = Math.max(fastPeriod, slowPeriod);
  if (n <= first) return null;

  const fastStart = windowSumThrough(close, fastPeriod, first);
  let fastHi = fastStart.hi;
  let fastLo = fastStart.lo;
  let fastRenormalise = fastStart.nextRenormalise;
  const slowStart = windowSumThrough(close, slowPeriod, first);
  let slowHi = slowStart.hi;
  let slowLo = slowStart.lo;
  let slowRenormalise = slowStart.nextRenormalise;
  let fastBefore = (fastHi + fastLo) / fastPeriod;
  let slowBefore = (slowHi + slowLo) / slowPeriod;

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; ) {
    account.openBar(t, pending); // the fill at this bar's open
    // The bars up to the next close whose signal acts: the window sums (as indicators.ts rollingSums) and the
    // close's signal (as signals.ts crossSignals); then their equity, nothing filling in between.
    const wanted = account.wanted;
    const start = t;
    do {
      // Renormalise a window sum where rollingSums does (before the step of bar period + k · 1024).
      if (t === fastRenormalise) {
        const s = fastHi + fastLo;
        const b = s - fastHi;
        fastLo = fastHi - (s - b) + (fastLo - b);
        fastHi = s;
        fastRenormalise += RENORMALISE;
      }
      if (t === slowRenormalise) {
        const s = slowHi + slowLo;
        const b = s - slowHi;
        slowLo = slowHi - (s - b) + (slowLo - b);
        slowHi = s;
        slowRenormalise += RENORMALISE;
      }
      const x = close[t]!;
      {
        const y = close[t - fastPeriod]!;
        const d = x - y;
        const bd = d - x;
        const ed = x - (d - bd) - (y + bd);
        const sum = fastHi + d;
        const bs = sum - fastHi;
        fastLo += fastHi - (sum - bs) + (d - bs) + ed;
        fastHi = sum;
      }
      {
        const y = close[t - slowPeriod]!;
        const d = x - y;
        const bd = d - x;
        const ed = x - (d - bd) - (y + bd);
        const sum = slowHi + d;
        const bs = sum - slowHi;
        slowLo += slowHi - (sum - bs) + (d - bs) + ed;
        slowHi = sum;
      }
      const fastNow = (fastHi + fastLo) / fastPeriod;
      const slowNow = (slowHi + slowLo) / slowPeriod;
      pending = crossing(fastBefore, slowBefore, fastNow, slowNow);
      fastBefore = fastNow;
      slowBefore = slowNow;
      t++;
    } while (t < n && (pending & wanted) === 0);
    account.hold(start, t);
  }
  return account; // finished by the caller (index.ts)
}
