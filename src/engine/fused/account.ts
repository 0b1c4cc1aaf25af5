/**
 * The account every fused pass trades through: the next-open fill and the equity on each close, bar by bar; then,
 * at the end, the lowest drawdown and the sums of the daily returns and of their squares (the Sharpe ratio) in one
 * tight pass over the equity (equityStatistics), by the same operations as simulate.ts and metrics.ts
 * (fused.test.ts holds each fused run to the generic path, byte for byte). No running value is kept in a field and
 * updated every bar (peak, previous equity, return sum): that would be a store and a load per bar on the loop's
 * critical path, which cost more than the second pass (docs/benchmarks.md). The drawdown curve is derived from the
 * equity when read (ColumnarRun), the fills are kept as columns (Fills). A fused run keeps only its indicator state
 * and its signal; it calls `step(t, pending)` once per bar, or `openBar(t, pending)` at the start of a stretch of
 * bars with no signal acting and `hold(from, to)` for that stretch's equity; and `finish()` once at the end.
 */
import { Ledger } from '../execution/ledger.js';
import type { ExecutionModel } from '../execution/model.js';
import { ENTER, EXIT } from '../signals.js';
import { backtestMetrics, sharpeFromSums } from '../metrics.js';
import type { BacktestRun, BarSeries } from '../types.js';
import { ColumnarRun } from './columnar-run.js';
import { Fills } from './fills.js';

export class FusedAccount extends Ledger {
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly dates: readonly string[];
  readonly initialCapital: number;
  readonly equity: Float64Array;
  readonly first: number;
  readonly fills = new Fills();
  wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long

  /** Bars before `first` cannot have filled: their equity is the initial capital. No exits set (run-template.ts). */
  constructor(bars: BarSeries, initialCapital: number, first: number, model: ExecutionModel) {
    super(model, initialCapital);
    this.open = bars.open;
    this.high = bars.high;
    this.low = bars.low;
    this.close = bars.close;
    this.dates = bars.dates;
    this.initialCapital = initialCapital;
    this.first = first;
    this.equity = new Float64Array(bars.close.length);
    this.equity.fill(initialCapital, 0, first);
  }

  /**
   * Bar t: the fill at its open of the previous close's signal `pending` (if it is the one that acts), then the
   * equity on its close (as simulate.ts). Returns the close.
   */
  step(t: number, pending: number): number {
    if (pending & this.wanted) this.fill(t);
    const x = this.close[t]!;
    const shares = this.shares;
    this.equity[t] = shares === 0 ? this.cash : this.cash + shares * x;
    return x;
  }

  /**
   * The fill at bar t's open of the previous close's signal `pending`, if it acts (the first half of `step`). A
   * loop that then runs its indicators alone up to the next signal that acts and writes that stretch's equity with
   * `hold` keeps no account state in the per-bar loop (docs/benchmarks.md).
   */
  openBar(t: number, pending: number): void {
    if (pending & this.wanted) this.fill(t);
  }

  /** Bars from … to − 1 with no signal acting: only their equity (as `step` with nothing pending), state in locals. */
  hold(from: number, to: number): void {
    const { close, equity, cash, shares } = this;
    if (shares === 0) equity.fill(cash, from, to);
    else for (let t = from; t < to; t++) equity[t] = cash + shares * close[t]!;
  }

  private fill(t: number): void {
    if (this.wanted === ENTER) {
      // Cannot buy one share: still flat, the next entry signal may act.
      if (this.buy(this.open[t]!, this.high, t)) {
        this.wanted = EXIT;
        this.fills.add(t, this.price, this.shares);
      }
    } else {
      const shares = this.shares;
      this.sell(this.open[t]!, this.low, t);
      this.fills.add(t, this.price, shares);
      this.wanted = ENTER;
    }
  }

  /** Sells an open position at the last close (the last equity becomes the cash after it) and computes the metrics. */
  finish(): BacktestRun {
    const { dates, equity, fills, initialCapital } = this;
    const last = equity.length - 1;
    const shares = this.shares;
    if (shares > 0) {
      this.sell(this.close[last]!, this.low, last);
      fills.add(last, this.price, shares);
      fills.soldAtEnd = true;
      equity[last] = this.cash;
    }
    const { lowest, returnSum, returnSquares, shift } = equityStatistics(equity, this.first, initialCapital);
    const sharpe = sharpeFromSums(returnSum, returnSquares, last, shift);
    const metrics = backtestMetrics(dates, equity, initialCapital, lowest, sharpe, fills.statistics(dates, this.model));
    return new ColumnarRun(dates, equity, fills, this.model, metrics, this.costsPaid(), this.unfilled);
  }
}

/**
 * The lowest drawdown, the sum of the daily returns equity[t] / equity[t − 1] − 1 less the first return, and the
 * sum of their squares (t ≥ 1, in order, as metrics.ts sharpeRatio adds them; an unchanged equity is a return of 0, as there), from
 * bar `from` on: the bars before it hold the initial capital (returns 0, drawdowns 0). The 0 is selected rather
 * than branched around: with a branch, a run of buy_and_hold first (every bar a return) left V8 with code 2.5×
 * slower for the others (docs/benchmarks.md).
 *
 * The drawdown value / peak − 1 is divided only where it can be a new lowest. After a lowest d = fl(q) − 1,
 * q = fl(value / peak), a later value v at a peak p gives a lower one only if fl(v / p) < q (rounding is monotone),
 * so only if v < p · q. `ratio` is 1 + d (within 2⁻⁵² of q) raised by 10⁻¹⁵ and then by a factor 1 + 10⁻¹⁵, so
 * that `deepest` = p · ratio, rounded, stays above p · q: a value at or above it is skipped, and every value that
 * could lower the drawdown is divided as simulate.ts divides it. A NaN value is never below it, as its NaN
 * drawdown is never lower.
 */
export function equityStatistics(
  equity: Float64Array,
  from: number,
  initialCapital: number,
): { lowest: number; returnSum: number; returnSquares: number; shift: number } {
  // The first return (metrics.ts sharpeFromSums): 0 when bar 1 cannot have filled, so the bars skipped add nothing.
  // Bar 0 never fills (a signal acts at the next open), so a pass from 0 starts at 1 with the same equity before it.
  const start = Math.max(from, 1);
  const shift = start === 1 && equity.length > 1 ? returnBetween(initialCapital, equity[1]!) : 0;
  let peak = initialCapital;
  let previous = initialCapital;
  let lowest = 0;
  let ratio = (1 + 1e-15) * (1 + 1e-15);
  let deepest = peak * ratio;
  let returnSum = 0;
  let returnSquares = 0;
  for (let t = start; t < equity.length; t++) {
    const value = equity[t]!;
    if (value >= peak) {
      peak = value;
      deepest = value * ratio;
    } else if (value < deepest) {
      const drawdown = value / peak - 1;
      if (drawdown < lowest) {
        lowest = drawdown;
        ratio = (1 + drawdown + 1e-15) * (1 + 1e-15);
        deepest = peak * ratio;
      }
    }
    const d = (value !== previous && previous !== 0 ? value / previous - 1 : 0) - shift;
    returnSum += d;
    returnSquares += d * d;
    previous = value;
  }
  return { lowest, returnSum, returnSquares, shift };
}

/** The daily return as metrics.ts takes it: an unchanged equity, or one from 0, is exactly 0. */
function returnBetween(before: number, now: number): number {
  return now === before || before === 0 ? 0 : now / before - 1;
}
