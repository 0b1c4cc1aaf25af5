/**
 * The account every fused pass trades through: the next-open fill, the equity on each close, its drawdown, the
 * lowest drawdown and the sum of daily returns, bar by bar, by the same operations in the same order as simulate.ts
 * (fused.test.ts holds each fused run to the generic path, byte for byte). One array is written per bar, the
 * equity; the drawdown is kept as a running value (the curve is derived from the equity when read, ColumnarRun)
 * and the fills as columns (Fills). A fused run keeps only its indicator state and its signal; it calls
 * `step(t, pending)` once per bar and `finish()` once at the end.
 */
import { ENTER, EXIT } from '../signals.js';
import { backtestMetrics } from '../metrics.js';
import type { BacktestRun, BarSeries } from '../types.js';
import { ColumnarRun } from './columnar-run.js';
import { Fills } from './fills.js';

export class FusedAccount {
  readonly open: Float64Array;
  readonly close: Float64Array;
  readonly dates: readonly string[];
  readonly initialCapital: number;
  readonly equity: Float64Array;
  readonly fills = new Fills();
  cash: number;
  shares = 0;
  wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long
  peak: number;
  lowest = 0;
  previous: number;
  returnSum = 0;

  /** Bars before `first` cannot have filled: their equity is the initial capital, their drawdown 0. */
  constructor(bars: BarSeries, initialCapital: number, first: number) {
    this.open = bars.open;
    this.close = bars.close;
    this.dates = bars.dates;
    this.initialCapital = initialCapital;
    const n = bars.close.length;
    this.equity = new Float64Array(n);
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
    // The drawdown (as simulate.ts): 0 at a new peak; an unchanged equity repeats the one already counted.
    if (value >= this.peak) {
      this.peak = value;
    } else if (value !== previous) {
      const drawdown = value / this.peak - 1;
      if (drawdown < this.lowest) this.lowest = drawdown;
    }
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
        this.wanted = EXIT;
        this.fills.add(t, price, bought);
      }
    } else {
      const shares = this.shares;
      this.cash += shares * price;
      this.fills.add(t, price, shares);
      this.shares = 0;
      this.wanted = ENTER;
    }
  }

  /** Sells an open position at the last close and computes the metrics. */
  finish(): BacktestRun {
    const { dates, equity, fills } = this;
    const last = equity.length - 1;
    if (this.shares > 0) fills.add(last, this.close[last]!, this.shares);
    const metrics = backtestMetrics(dates, equity, this.initialCapital, this.lowest, this.returnSum, fills.statistics(dates));
    return new ColumnarRun(dates, equity, fills, metrics);
  }
}
