/**
 * A whole sweep once planned: every cell's metrics (through a cell runner the caller chooses: sweepCells here, or
 * the service's worker threads), the best cell, and its out-of-sample check (docs/backtesting.md).
 */
import { EngineError } from '../engine-error.js';
import { FRICTIONLESS, type ExecutionSettings } from '../execution/settings.js';
import { computeMetrics } from '../metrics.js';
import { runTemplateBacktest } from '../run-template.js';
import { drawdownCurve } from '../simulate.js';
import type { BacktestTrade, BarSeries, ResolvedParameters, StrategyTemplate } from '../types.js';
import { bestCellIndex, cellMetricsOf, type CellMetrics, type SweepObjective } from './cell-metrics.js';
import type { SweepPlan } from './grid.js';
import { sliceBars, splitIndex, walkForwardWindows, type BarRange, type SweepValidation } from './validation.js';

/** Runs cells over bars: the service passes one that splits the cells across worker threads running sweepCells. */
export type RunCells = (bars: BarSeries, cells: readonly ResolvedParameters[]) => Promise<CellMetrics[]>;

export interface WalkForwardWindowResult {
  readonly inSample: BarRange;
  readonly outOfSample: BarRange;
  /** The best in-sample cell's parameters. */
  readonly params: ResolvedParameters;
  readonly inSampleMetrics: CellMetrics;
  readonly outOfSampleMetrics: CellMetrics;
}

export interface SweepOutcome {
  /** One per plan.cells: over the in-sample bars with a split, over all the bars otherwise. */
  readonly metrics: readonly CellMetrics[];
  /** Index into plan.cells. */
  readonly best: number;
  readonly validation?:
    | { readonly kind: 'split'; readonly splitIndex: number; readonly outOfSample: CellMetrics }
    | {
        readonly kind: 'walk_forward';
        readonly windows: readonly WalkForwardWindowResult[];
        readonly dates: readonly string[];
        /** The out-of-sample runs' equity curves end to end. */
        readonly equity: Float64Array;
        /** Of the stitched curve and all the out-of-sample trades. */
        readonly metrics: CellMetrics;
      };
}

export interface SweepInput {
  readonly bars: BarSeries;
  readonly template: StrategyTemplate;
  readonly plan: SweepPlan;
  readonly initialCapital: number;
  readonly objective: SweepObjective;
  /** Cells with fewer round trips rank below every cell with enough (bestCellIndex); 0 by default. */
  readonly minTrades?: number;
  readonly validation?: SweepValidation;
  /** Costs, sizing and exits of every run (the cells' too: the caller's RunCells must pass the same); FRICTIONLESS by default. */
  readonly execution?: ExecutionSettings;
}

/**
 * EngineError `invalid_validation` for a split or windows that leave fewer than 2 bars on a side; `capital_exhausted`
 * for a walk-forward window whose out-of-sample run would start with no capital (the previous one ended at or below 0).
 */
export async function runSweep(input: SweepInput, runCells: RunCells): Promise<SweepOutcome> {
  const { bars, template, plan, initialCapital, objective, validation } = input;
  const execution = input.execution ?? FRICTIONLESS;
  const minTrades = input.minTrades ?? 0;
  if (validation && !('walk_forward' in validation)) {
    const split = splitIndex(bars.dates, validation);
    const metrics = await runCells(sliceBars(bars, 0, split), plan.cells);
    const best = bestCellIndex(metrics, objective, minTrades);
    const held = runTemplateBacktest(sliceBars(bars, split, bars.dates.length), template, plan.cells[best]!, initialCapital, execution);
    return { metrics, best, validation: { kind: 'split', splitIndex: split, outOfSample: cellMetricsOf(held.metrics) } };
  }
  const windows = validation ? walkForwardWindows(bars.dates.length, validation.walk_forward.windows, validation.walk_forward.in_sample_fraction) : [];
  const metrics = await runCells(bars, plan.cells);
  const best = bestCellIndex(metrics, objective, minTrades);
  if (!validation) return { metrics, best };

  const results: WalkForwardWindowResult[] = [];
  const dates: string[] = [];
  const equity = new Float64Array(windows.reduce((sum, w) => sum + w.outOfSample.end - w.outOfSample.start, 0));
  const trades: BacktestTrade[] = [];
  let capital = initialCapital;
  for (const [i, { inSample, outOfSample }] of windows.entries()) {
    if (!(capital > 0)) throw capitalExhausted(i, windows.length, capital);
    const inSampleMetrics = await runCells(sliceBars(bars, inSample.start, inSample.end), plan.cells);
    const chosen = bestCellIndex(inSampleMetrics, objective, minTrades);
    const params = plan.cells[chosen]!;
    const run = runTemplateBacktest(sliceBars(bars, outOfSample.start, outOfSample.end), template, params, capital, execution);
    equity.set(run.equity, dates.length);
    for (let t = outOfSample.start; t < outOfSample.end; t++) dates.push(bars.dates[t]!);
    trades.push(...run.trades);
    capital = run.metrics.final_capital;
    results.push({ inSample, outOfSample, params, inSampleMetrics: inSampleMetrics[chosen]!, outOfSampleMetrics: cellMetricsOf(run.metrics) });
  }
  const stitched = computeMetrics(dates, equity, drawdownCurve(equity), trades, initialCapital);
  return { metrics, best, validation: { kind: 'walk_forward', windows: results, dates, equity, metrics: cellMetricsOf(stitched) } };
}

/**
 * A window's out-of-sample run starts with the capital the previous one ended with; costs (a commission minimum
 * larger than the sale, a 100 % commission) can leave none, and an account without capital cannot be run.
 */
function capitalExhausted(window: number, windows: number, capital: number): EngineError {
  const amount = `${capital < 0 ? '-' : ''}$${Math.abs(capital).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return new EngineError(
    'capital_exhausted',
    `Walk-forward window ${window + 1} of ${windows} has no capital to trade: the out-of-sample run of window ${window} ended at ${amount}, ` +
      'its losses and costs having taken the whole capital. Lower the costs, or raise initial_capital.',
    [{ field: 'body.validation.walk_forward', message: `window ${window} ended at ${amount}` }],
  );
}
