/**
 * rsi_reversion in one pass: Wilder's average gain and loss, the RSI's threshold crossings, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (rsi, signals.ts, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { rsiValue } from '../indicators.js';
import { ENTER, EXIT } from '../signals.js';
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries, ResolvedParameters } from '../types.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function rsiReversionRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number): BacktestRun | null {
  const { open, close, dates } = bars;
  const n = close.length;
  const period = params.period!;
  const oversold = params.oversold!;
  const overbought = params.overbought!;
  if (!Number.isInteger(period) || period < 1) return null;
  // The RSI is defined from bar period; the first crossing can be on bar `first`, the first fill after it.
  const first = period + 1;
  if (n <= first) return null;

  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n); // 0 while flat before the first fill
  equity.fill(initialCapital, 0, first);
  const trades: BacktestTrade[] = [];

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

  let cash = initialCapital;
  let shares = 0;
  let entryBar = -1;
  let entryPrice = 0;
  let wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long
  let pending = 0; // the previous close's signal
  let peak = initialCapital;
  let lowest = 0;
  let previous = initialCapital;
  let drawdown = 0;
  let returnSum = 0;
  for (let t = first; t < n; t++) {
    // The fill at this bar's open.
    if (pending & wanted) {
      const price = open[t]!;
      if (wanted === ENTER) {
        const bought = Math.floor(cash / price);
        if (bought >= 1 && Number.isFinite(bought)) {
          shares = bought;
          cash -= shares * price;
          entryBar = t;
          entryPrice = price;
          wanted = EXIT;
          trades.push(buy(dates[t]!, price, shares));
        }
      } else {
        cash += shares * price;
        trades.push(sell(dates, entryBar, entryPrice, t, price, shares));
        shares = 0;
        wanted = ENTER;
      }
    }
    // The equity on this close, its drawdown and return (as simulate.ts).
    const x = close[t]!;
    const value = shares === 0 ? cash : cash + shares * x;
    equity[t] = value;
    if (value >= peak) {
      peak = value;
      drawdown = 0;
    } else if (value !== previous) {
      drawdown = value / peak - 1;
    }
    drawdowns[t] = drawdown;
    if (drawdown < lowest) lowest = drawdown;
    if (value !== previous && previous !== 0) returnSum += value / previous - 1;
    previous = value;

    // Wilder's smoothing (as indicators.ts rsi) and this close's signal (as signals.ts rsi_reversion).
    const change = x - close[t - 1]!;
    const up = change > 0 ? change : 0;
    const down = change > 0 ? 0 : -change;
    gain = (up - gain) / period + gain;
    loss = (down - loss) / period + loss;
    const now = rsiValue(gain, loss);
    if (before >= oversold && now < oversold) pending = ENTER;
    else if (before <= overbought && now > overbought) pending = EXIT;
    else pending = 0;
    before = now;
  }
  if (shares > 0) trades.push(sell(dates, entryBar, entryPrice, n - 1, close[n - 1]!, shares));
  const metrics = computeMetrics(dates, equity, drawdowns, trades, initialCapital, lowest, returnSum);
  return { equity, drawdowns, trades, metrics };
}
