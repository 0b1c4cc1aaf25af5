/**
 * The result of a fused run: the equity curve and the metrics computed in the pass; the drawdown curve and the
 * trade objects derived from them on first read (and kept), since a comparison reads neither. Reads the same as
 * the generic path's plain object, value for value (fused.test.ts).
 */
import type { ExecutionModel } from '../execution/model.js';
import type { CostsPaid } from '../execution/settings.js';
import type { BacktestMetrics, BacktestRun, BacktestTrade } from '../types.js';
import type { Fills } from './fills.js';

export class ColumnarRun implements BacktestRun {
  readonly equity: Float64Array;
  readonly metrics: BacktestMetrics;
  readonly costs_paid: CostsPaid;
  readonly unfilled_entries: number;
  readonly #dates: readonly string[];
  readonly #fills: Fills;
  #drawdowns: Float64Array | undefined;
  #trades: BacktestTrade[] | undefined;

  readonly #model: ExecutionModel;

  constructor(dates: readonly string[], equity: Float64Array, fills: Fills, model: ExecutionModel, metrics: BacktestMetrics, costsPaid: CostsPaid, unfilledEntries: number) {
    this.#model = model;
    this.costs_paid = costsPaid;
    this.unfilled_entries = unfilledEntries;
    this.#dates = dates;
    this.equity = equity;
    this.#fills = fills;
    this.metrics = metrics;
  }

  get drawdowns(): Float64Array {
    return (this.#drawdowns ??= runningDrawdowns(this.equity));
  }

  get trades(): BacktestTrade[] {
    return (this.#trades ??= this.#fills.trades(this.#dates, this.#model));
  }
}

/**
 * The drawdowns simulate.ts writes bar by bar: 0 at a new peak (value ≥ peak, so also an infinite equity at an
 * infinite peak), else value / peak − 1. simulate.ts carries the previous drawdown over an unchanged equity instead of
 * dividing again; below the peak the peak has not moved either, so the division gives that same number.
 */
function runningDrawdowns(equity: Float64Array): Float64Array {
  const drawdowns = new Float64Array(equity.length);
  let peak = -Infinity;
  for (let t = 0; t < equity.length; t++) {
    const value = equity[t]!;
    if (value >= peak) peak = value;
    else drawdowns[t] = value / peak - 1;
  }
  return drawdowns;
}
