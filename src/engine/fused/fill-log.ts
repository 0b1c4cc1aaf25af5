/**
 * What a fused template run records per fill, and the run's result built from it: the trades (the objects
 * simulate.ts makes), the round-trip statistics tallied in the same order, and the metrics. The fused loop itself
 * writes the equity and drawdown curves and keeps the lowest drawdown and the sum of daily returns.
 */
import { RoundTripTally, backtestMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries } from '../types.js';

/** Fills in order: a buy, its sale, a buy, … (the last sale may be the closing sale at the last close). */
export class FillLog {
  readonly bars: number[] = [];
  readonly prices: number[] = [];
  readonly shares: number[] = [];

  add(bar: number, price: number, shares: number): void {
    this.bars.push(bar);
    this.prices.push(price);
    this.shares.push(shares);
  }
}

/** The curves and running values a fused loop ends with. */
export interface FusedPass {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly fills: FillLog;
  readonly lowestDrawdown: number;
  readonly returnSum: number;
}

/** The BacktestRun the generic path (signals, simulate, computeMetrics) gives for the same fills, byte for byte. */
export function fusedRunResult(bars: BarSeries, pass: FusedPass, initialCapital: number): BacktestRun {
  const { dates } = bars;
  const { bars: fillBars, prices, shares } = pass.fills;
  const trades: BacktestTrade[] = [];
  const tally = new RoundTripTally();
  for (let k = 0; k < fillBars.length; k++) {
    const bar = fillBars[k]!;
    if (k % 2 === 0) {
      trades.push(buy(dates[bar]!, prices[k]!, shares[k]!));
    } else {
      const trade = sell(dates, fillBars[k - 1]!, prices[k - 1]!, bar, prices[k]!, shares[k]!);
      trades.push(trade);
      tally.add(trade.pnl!, trade.duration!);
    }
  }
  const metrics = backtestMetrics(dates, pass.equity, initialCapital, pass.lowestDrawdown, pass.returnSum, tally.statistics());
  return { equity: pass.equity, drawdowns: pass.drawdowns, trades, metrics };
}

