/**
 * macd_crossover in one pass: the fast and slow EMA recursions, the MACD line and its signal line's EMA, the crossing test, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (macd, crossSignals, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { crossing } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function macdCrossoverRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close } = bars;
  const n = close.length;
  const fastPeriod = params.fast_period!;
  const slowPeriod = params.slow_period!;
  const signalPeriod = params.signal_period!;
  const periods = [fastPeriod, slowPeriod, signalPeriod];
  if (!periods.every((period) => Number.isInteger(period) && period >= 1)) return null;
  // The line is defined from bar slowPeriod − 1, its signal line from first − 1 = slowPeriod + signalPeriod − 2;
  // the first crossing can be on bar `first`, the first fill after it.
  const lineFrom = slowPeriod - 1;
  const first = lineFrom + signalPeriod;
  if (n <= first) return null;

  // As indicators.ts macd: both EMAs seeded with the first close, e = x·k + e·(1 − k); the line fast − slow from
  // bar lineFrom; the signal line an EMA of the line seeded with its first value.
  const fastK = 2 / (fastPeriod + 1);
  const fastKeep = 1 - fastK;
  const slowK = 2 / (slowPeriod + 1);
  const slowKeep = 1 - slowK;
  const signalK = 2 / (signalPeriod + 1);
  const signalKeep = 1 - signalK;
  let fastEma = close[0]!;
  let slowEma = close[0]!;
  for (let t = 1; t <= lineFrom; t++) {
    fastEma = close[t]! * fastK + fastEma * fastKeep;
    slowEma = close[t]! * slowK + slowEma * slowKeep;
  }
  let lineBefore = fastEma - slowEma;
  let signalBefore = lineBefore;
  for (let t = lineFrom + 1; t < first; t++) {
    fastEma = close[t]! * fastK + fastEma * fastKeep;
    slowEma = close[t]! * slowK + slowEma * slowKeep;
    lineBefore = fastEma - slowEma;
    signalBefore = lineBefore * signalK + signalBefore * signalKeep;
  }

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; ) {
    account.openBar(t, pending); // the fill at this bar's open
    // The bars up to the next close whose signal acts: the MACD line, its signal line and the close's signal (as
    // signals.ts crossSignals); then their equity, nothing filling in between.
    const wanted = account.wanted;
    const start = t;
    do {
      const x = close[t]!;
      fastEma = x * fastK + fastEma * fastKeep;
      slowEma = x * slowK + slowEma * slowKeep;
      const lineNow = fastEma - slowEma;
      const signalNow = lineNow * signalK + signalBefore * signalKeep;
      pending = crossing(lineBefore, signalBefore, lineNow, signalNow);
      lineBefore = lineNow;
      signalBefore = signalNow;
      t++;
    } while (t < n && (pending & wanted) === 0);
    account.hold(start, t);
  }
  return account; // finished by the caller (index.ts)
}
