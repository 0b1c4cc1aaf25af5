/**
 * The JSON body of POST /api/backtest/sweep ("Parameter sweep result"), shaped from the engine's `SweepOutcome`.
 * Rounded at output as every backtest body (docs/backtesting.md "Output precision"): fractions and ratios to 8
 * decimals, money (the walk-forward equity) to the cent, trade counts as they are; the engine ranks the cells on
 * unrounded values.
 */
import {
  isThin,
  moneyArray,
  type BarSeries,
  type CellMetrics,
  type ResolvedParameters,
  type StrategyTemplate,
  type SweepOutcome,
  type SweepPlan,
} from '../engine/index.js';
import { roundedRatios } from './backtest-result.js';
import type { SweepResult } from './sweep.schema.js';

type RoundedMetrics = ReturnType<typeof roundedMetrics>;
type Cell = { params: Record<string, number> } & RoundedMetrics & { thin: boolean };

export interface SweepResultInput {
  readonly symbol: string;
  readonly template: StrategyTemplate;
  /** First and last bar used, ISO 8601 UTC timestamps. */
  readonly startDate: string;
  readonly endDate: string;
  readonly objective: string;
  /** Cells with fewer round trips are thin. */
  readonly minTrades: number;
  readonly bars: BarSeries;
  readonly plan: SweepPlan;
  readonly outcome: SweepOutcome;
}

export function sweepResult(input: SweepResultInput): SweepResult {
  const { plan, outcome, template, bars } = input;
  const cells = plan.cells.map((params, i) => cell(template, params, outcome.metrics[i]!, input.minTrades));
  const best = cells[outcome.best]!;
  const result: SweepResult = {
    symbol: input.symbol,
    strategy: template.id,
    start_date: input.startDate,
    end_date: input.endDate,
    objective: input.objective,
    min_trades: input.minTrades,
    parameters: [...plan.parameters],
    cells,
    skipped_cells: plan.skipped,
    best,
  };
  const validation = outcome.validation;
  if (validation?.kind === 'split') {
    result.validation = { split_date: bars.dates[validation.splitIndex]!, in_sample: best, out_of_sample: roundedMetrics(validation.outOfSample) };
  } else if (validation?.kind === 'walk_forward') {
    const side = (range: { start: number; end: number }, metrics: CellMetrics) => ({
      start_date: bars.dates[range.start]!,
      end_date: bars.dates[range.end - 1]!,
      ...roundedMetrics(metrics),
    });
    result.validation = {
      walk_forward: {
        windows: validation.windows.map((w) => ({
          in_sample: side(w.inSample, w.inSampleMetrics),
          out_of_sample: side(w.outOfSample, w.outOfSampleMetrics),
          params: templateOrdered(template, w.params),
        })),
        dates: [...validation.dates],
        equity_curve: moneyArray(validation.equity),
        metrics: roundedMetrics(validation.metrics),
      },
    };
  }
  return result;
}

function cell(template: StrategyTemplate, params: ResolvedParameters, metrics: CellMetrics, minTrades: number): Cell {
  return { params: templateOrdered(template, params), ...roundedMetrics(metrics), thin: isThin(metrics, minTrades) };
}

/** Every parameter of the template, in the template's order (GET /api/templates). */
function templateOrdered(template: StrategyTemplate, params: ResolvedParameters): Record<string, number> {
  const ordered: Record<string, number> = {};
  for (const p of template.parameters) ordered[p.name] = params[p.name]!;
  return ordered;
}

function roundedMetrics(m: CellMetrics) {
  return { ...roundedRatios(m), total_trades: m.total_trades };
}
