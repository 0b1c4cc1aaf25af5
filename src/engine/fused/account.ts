/**
 * The account every fused pass trades through: the next-open fill, the equity on each close, its drawdown, the
 * lowest drawdown and the sum of daily returns, and the trades, bar by bar, by the same operations in the same order
 * as simulate.ts (fused.test.ts holds each fused run to the generic path, byte for byte). A fused run keeps only its
 * indicator state and its signal; it calls `step(t, pending)` once per bar and `finish()` once at the end.
 */
import { ENTER, EXIT } from '../signals.js';
import { computeMetrics } from '../metrics.js';
import { buy, sell } from '../simulate.js';
import type { BacktestRun, BacktestTrade, BarSeries } from '../types.js';

export class FusedAccount {
  readonly open: Float64Array;
  readonly close: Float64Array;
  readonly dates: readonly string[];
  readonly initialCapital: number;
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array; // 0 while flat before the first fill
  readonly trades: BacktestTrade[] = [];
  cash: number;
  shares = 0;
  entryBar = -1;
  entryPrice = 0;
  wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long
  peak: number;
  lowest = 0;
  previous: number;
  drawdown = 0;
  returnSum = 0;

  /** Bars before `first` cannot have filled: their equity is the initial capital, their drawdown 0. */
  constructor(bars: BarSeries, initialCapital: number, first: number) {
    this.open = bars.open;
    this.close = bars.close;
    this.dates = bars.dates;
    this.initialCapital = initialCapital;
    const n = bars.close.length;
    this.equity = new Float64Array(n);
    this.drawdowns = new Float64Array(n);
    this.equity.fill(initialCapital, 0, first);
    this.cash = initialCapital;
    this.peak = initialCapital;
    this.previous = initialCapital;
  }

  /**
   * Bar t: the fill at its open of the previous close's signal `pending` (if it is the one that acts), then the
   * equity on its close, its drawdown and its return (as simulate.ts). Returns the close.
   */
  step(t: number, pending: number): number {
    if (pending & this.wanted) this.fill(t);
    const x = this.close[t]!;
    const shares = this.shares;
    const previous = this.previous;
    const value = shares === 0 ? this.cash : this.cash + shares * x;
    this.equity[t] = value;
    let drawdown = this.drawdown;
    if (value >= this.peak) {
      this.peak = value;
      drawdown = 0;
    } else if (value !== previous) {
      drawdown = value / this.peak - 1;
    }
    this.drawdown = drawdown;
    this.drawdowns[t] = drawdown;
    if (drawdown < this.lowest) this.lowest = drawdown;
    if (value !== previous && previous !== 0) this.returnSum += value / previous - 1;
    this.previous = value;
    return x;
  }

  private fill(t: number): void {
    const price = this.open[t]!;
    if (this.wanted === ENTER) {
      const bought = Math.floor(this.cash / price);
      // Cannot buy one share: still flat, the next entry signal may act.
      if (bought >= 1 && Number.isFinite(bought)) {
        this.shares = bought;
        this.cash -= bought * price;
        this.entryBar = t;
        this.entryPrice = price;
        this.wanted = EXIT;
        this.trades.push(buy(this.dates[t]!, price, bought));
      }
    } else {
      const shares = this.shares;
      this.cash += shares * price;
      this.trades.push(sell(this.dates, this.entryBar, this.entryPrice, t, price, shares));
      this.shares = 0;
      this.wanted = ENTER;
    }
  }

  /** Sells an open position at the last close and computes the metrics. */
  finish(): BacktestRun {
    const { dates, equity, drawdowns, trades } = this;
    const last = equity.length - 1;
    if (this.shares > 0) trades.push(sell(dates, this.entryBar, this.entryPrice, last, this.close[last]!, this.shares));
    const metrics = computeMetrics(dates, equity, drawdowns, trades, this.initialCapital, this.lowest, this.returnSum);
    return { equity, drawdowns, trades, metrics };
  }
}
