/**
 * sma_crossover in one pass: the two exact rolling window sums, the crossing test, the next-open fills, the equity,
 * its drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (sma, crossSignals, simulate, computeMetrics): every
 * value below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { RENORMALISE } from '../indicators.js';
import { ENTER, EXIT } from '../signals.js';
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries, ResolvedParameters } from '../types.js';
import { windowSumThrough } from './window-sum.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function smaCrossoverRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number): BacktestRun | null {
  const { open, close, dates } = bars;
  const n = close.length;
  const fastPeriod = params.fast_period!;
  const slowPeriod = params.slow_period!;
  if (!Number.isInteger(fastPeriod) || !Number.isInteger(slowPeriod) || fastPeriod < 1 || slowPeriod < 1) return null;
  // Both means are defined from bar first − 1; the first crossing can be on bar `first`, the first fill after it.
  const first = Math.max(fastPeriod, slowPeriod);
  if (n <= first) return null;

  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n); // 0 while flat before the first fill
  equity.fill(initialCapital, 0, first);
  const trades: BacktestTrade[] = [];

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
  for (let start = first; start < n; ) {
    // Renormalise a window sum where indicators.ts rollingSums does (before the step of bar period + k · 1024).
    if (start === fastRenormalise) {
      const s = fastHi + fastLo;
      const b = s - fastHi;
      fastLo = fastHi - (s - b) + (fastLo - b);
      fastHi = s;
      fastRenormalise += RENORMALISE;
    }
    if (start === slowRenormalise) {
      const s = slowHi + slowLo;
      const b = s - slowHi;
      slowLo = slowHi - (s - b) + (slowLo - b);
      slowHi = s;
      slowRenormalise += RENORMALISE;
    }
    const end = Math.min(n, fastRenormalise, slowRenormalise);
    for (let t = start; t < end; t++) {
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

      // The window sums (as indicators.ts rollingSums) and this close's signal (as signals.ts crossSignals).
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
      if (fastBefore <= slowBefore && fastNow > slowNow) pending = ENTER;
      else if (fastBefore >= slowBefore && fastNow < slowNow) pending = EXIT;
      else pending = 0;
      fastBefore = fastNow;
      slowBefore = slowNow;
    }
    start = end;
  }
  if (shares > 0) trades.push(sell(dates, entryBar, entryPrice, n - 1, close[n - 1]!, shares));
  const metrics = computeMetrics(dates, equity, drawdowns, trades, initialCapital, lowest, returnSum);
  return { equity, drawdowns, trades, metrics };
}
