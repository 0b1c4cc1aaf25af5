/**
 * donchian_breakout in one pass: the highest high and the lowest low of the previous bars (monotonic deques), the
 * breakout tests, the next-open fills, the equity, the lowest drawdown and the sum of daily returns, bar by bar,
 * with no intermediate arrays and no allocation per bar. Byte-identical to the generic path (highest, lowest,
 * signals.ts, simulate, computeMetrics): the channels are the same numbers, the tests the same (fused.test.ts).
 */
import { ENTER, EXIT } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';
import { WindowHighest, WindowLowest } from './window-extremes.js';

/**
 * null when the generic path should run instead: periods that are not whole numbers ≥ 1, too few bars to trade, or
 * a NaN high or low (indicators.ts highest/lowest and a deque treat a NaN differently).
 */
export function donchianBreakoutRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close, high, low } = bars;
  const n = close.length;
  const entryPeriod = params.entry_period!;
  const exitPeriod = params.exit_period!;
  if (!Number.isInteger(entryPeriod) || !Number.isInteger(exitPeriod) || entryPeriod < 1 || exitPeriod < 1) return null;
  // The upper channel of bars t − entry_period … t − 1 exists from bar entry_period: the first ENTER can be there
  // (an EXIT before it finds the account flat and does nothing).
  const first = entryPeriod;
  if (n <= first) return null;

  const upper = new WindowHighest(high, entryPeriod);
  const lower = new WindowLowest(low, exitPeriod);
  for (let t = 0; t < first; t++) {
    if (Number.isNaN(high[t]!) || Number.isNaN(low[t]!)) return null;
    upper.push(t);
    lower.push(t);
  }

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; t++) {
    const x = account.step(t, pending); // the fill at this bar's open, the equity on its close
    // This close against the channels of the previous bars (as signals.ts donchian_breakout), then bar t joins them.
    // The lower channel exists from bar exit_period; before, t < exit_period and the test is false as against NaN.
    pending = (x > upper.extreme() ? ENTER : 0) | (t >= exitPeriod && x < lower.extreme() ? EXIT : 0);
    const h = high[t]!;
    const l = low[t]!;
    if (h !== h || l !== l) return null;
    upper.push(t);
    lower.push(t);
  }
  return account; // finished by the caller (index.ts)
}
