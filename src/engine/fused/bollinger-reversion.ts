/**
 * bollinger_reversion in one pass: the exact rolling window sum (the middle band), each window's deviation from
 * its mean (the lower band), the band crossings, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (bollinger, signals.ts, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { RENORMALISE } from '../indicators.js';
import { ENTER, EXIT } from '../signals.js';
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries, ResolvedParameters } from '../types.js';
import { windowSumThrough } from './window-sum.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function bollingerReversionRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number): BacktestRun | null {
  const { open, close, dates } = bars;
  const n = close.length;
  const period = params.period!;
  const width = params.std_dev!;
  if (!Number.isInteger(period) || period < 1) return null;
  // The bands are defined from bar period − 1; the first crossing can be on bar `first`, the first fill after it.
  const first = period;
  if (n <= first) return null;

  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n); // 0 while flat before the first fill
  equity.fill(initialCapital, 0, first);
  const trades: BacktestTrade[] = [];

  // As indicators.ts bollinger: middle = the window sum / period (rollingSums), lower = middle − deviation × width.
  const start = windowSumThrough(close, period, first);
  let hi = start.hi;
  let lo = start.lo;
  let renormalise = start.nextRenormalise;
  let middleBefore = (hi + lo) / period;
  let lowerBefore = middleBefore - deviation(close, first - 1, period, middleBefore) * width;

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

    // The window sum (as indicators.ts rollingSums), the bands and this close's signal (as signals.ts).
    if (t === renormalise) {
      const s = hi + lo;
      const b = s - hi;
      lo = hi - (s - b) + (lo - b);
      hi = s;
      renormalise += RENORMALISE;
    }
    const y = close[t - period]!;
    const d = x - y;
    const bd = d - x;
    const ed = x - (d - bd) - (y + bd);
    const sum = hi + d;
    const bs = sum - hi;
    lo += hi - (sum - bs) + (d - bs) + ed;
    hi = sum;
    const middle = (hi + lo) / period;
    const lower = middle - deviation(close, t, period, middle) * width;
    const closeBefore = close[t - 1]!;
    pending = (closeBefore >= lowerBefore && x < lower ? ENTER : 0) | (closeBefore <= middleBefore && x > middle ? EXIT : 0);
    lowerBefore = lower;
    middleBefore = middle;
  }
  if (shares > 0) trades.push(sell(dates, entryBar, entryPrice, n - 1, close[n - 1]!, shares));
  const metrics = computeMetrics(dates, equity, drawdowns, trades, initialCapital, lowest, returnSum);
  return { equity, drawdowns, trades, metrics };
}

/** The population standard deviation of values[end − period + 1 .. end] around `mean` (as indicators.ts). */
function deviation(values: Float64Array, end: number, period: number, mean: number): number {
  let squares = 0;
  for (let j = end - period + 1; j <= end; j++) {
    const d = values[j]! - mean;
    squares += d * d;
  }
  return Math.sqrt(squares / period);
}
