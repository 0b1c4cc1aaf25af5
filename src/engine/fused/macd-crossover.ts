/**
 * macd_crossover in one pass: the fast and slow EMA recursions, the MACD line and its signal line's EMA, the crossing test, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (macd, crossSignals, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { ENTER, EXIT } from '../signals.js';
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries, ResolvedParameters } from '../types.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function macdCrossoverRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number): BacktestRun | null {
  const { open, close, dates } = bars;
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

  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n); // 0 while flat before the first fill
  equity.fill(initialCapital, 0, first);
  const trades: BacktestTrade[] = [];

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

    // The MACD line, its signal line and this close's signal (as signals.ts crossSignals).
    fastEma = x * fastK + fastEma * fastKeep;
    slowEma = x * slowK + slowEma * slowKeep;
    const lineNow = fastEma - slowEma;
    const signalNow = lineNow * signalK + signalBefore * signalKeep;
    if (lineBefore <= signalBefore && lineNow > signalNow) pending = ENTER;
    else if (lineBefore >= signalBefore && lineNow < signalNow) pending = EXIT;
    else pending = 0;
    lineBefore = lineNow;
    signalBefore = signalNow;
  }
  if (shares > 0) trades.push(sell(dates, entryBar, entryPrice, n - 1, close[n - 1]!, shares));
  const metrics = computeMetrics(dates, equity, drawdowns, trades, initialCapital, lowest, returnSum);
  return { equity, drawdowns, trades, metrics };
}
