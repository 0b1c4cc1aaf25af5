/**
 * buy_and_hold in one pass: the buy at the second bar's open (the first close's signal), then the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no signal array. Byte-identical to the
 * generic path (signals.ts, simulate, computeMetrics): the same operations in the same order (fused.test.ts).
 */
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries } from '../types.js';

/** null when the generic path should run instead (a single bar: nothing can fill). */
export function buyAndHoldRun(bars: BarSeries, _params: unknown, initialCapital: number): BacktestRun | null {
  const { open, close, dates } = bars;
  const n = close.length;
  if (n < 2) return null;
  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n);
  const trades: BacktestTrade[] = [];
  equity[0] = initialCapital;

  // The fill at bar 1's open (as simulate.ts).
  let cash = initialCapital;
  let shares = 0;
  const price = open[1]!;
  const bought = Math.floor(cash / price);
  if (bought >= 1 && Number.isFinite(bought)) {
    shares = bought;
    cash -= shares * price;
    trades.push(buy(dates[1]!, price, shares));
  }

  let peak = initialCapital;
  let lowest = 0;
  let previous = initialCapital;
  let drawdown = 0;
  let returnSum = 0;
  for (let t = 1; t < n; t++) {
    const value = shares === 0 ? cash : cash + shares * close[t]!;
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
  }
  if (shares > 0) trades.push(sell(dates, 1, price, n - 1, close[n - 1]!, shares));
  const metrics = computeMetrics(dates, equity, drawdowns, trades, initialCapital, lowest, returnSum);
  return { equity, drawdowns, trades, metrics };
}
