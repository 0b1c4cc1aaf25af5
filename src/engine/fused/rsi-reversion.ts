/**
 * rsi_reversion in one pass: Wilder's average gain and loss, the RSI's threshold crossings, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (rsi, signals.ts, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { rsiValue } from '../indicators.js';
import { ENTER, EXIT } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function rsiReversionRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close } = bars;
  const n = close.length;
  const period = params.period!;
  const oversold = params.oversold!;
  const overbought = params.overbought!;
  if (!Number.isInteger(period) || period < 1) return null;
  // The RSI is defined from bar period; the first crossing can be on bar `first`, the first fill after it.
  const first = period + 1;
  if (n <= first) return null;

  // As indicators.ts rsi: the first averages are simple means of the first `period` changes.
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const change = close[i]! - close[i - 1]!;
    if (change > 0) gain += change;
    else loss -= change;
  }
  gain /= period;
  loss /= period;
  let before = rsiValue(gain, loss);

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; ) {
    account.openBar(t, pending); // the fill at this bar's open
    // The bars up to the next close whose signal acts: Wilder's smoothing (as indicators.ts rsi) and the close's
    // signal (as signals.ts rsi_reversion); then their equity, nothing filling in between.
    const wanted = account.wanted;
    const start = t;
    do {
      const change = close[t]! - close[t - 1]!;
      const up = change > 0 ? change : 0;
      const down = change > 0 ? 0 : -change;
      gain = (up - gain) / period + gain;
      loss = (down - loss) / period + loss;
      const now = rsiValue(gain, loss);
      if (before >= oversold && now < oversold) pending = ENTER;
      else if (before <= overbought && now > overbought) pending = EXIT;
      else pending = 0;
      before = now;
      t++;
    } while (t < n && (pending & wanted) === 0);
    account.hold(start, t);
  }
  return account; // finished by the caller (index.ts)
}
