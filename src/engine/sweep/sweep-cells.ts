/** Every cell of a sweep over the same bars: each cell's seven metrics, as runTemplateBacktest gives them. */
import { ExecutionModel, skipsBarsSafely } from '../execution/model.js';
import { FRICTIONLESS, type ExecutionSettings } from '../execution/settings.js';
import { runTemplateBacktest } from '../run-template.js';
import type { BarSeries, ResolvedParameters, StrategyTemplate } from '../types.js';
import { cellMetricsOf, type CellMetrics } from './cell-metrics.js';
import { cellRules } from './cell-rules.js';
import { CellContext, ruleCell } from './rule-cell.js';

/**
 * Each cell's metrics over the bars, equal to runTemplateBacktest's. Each indicator series the cells share is
 * computed once per call (cell-rules.ts, rule-cell.ts); buy_and_hold, a cell too short to trade, and every cell of a
 * sweep with exits set, run runTemplateBacktest. The execution settings apply to every cell alike.
 * Pure, synchronous, deterministic.
 */
export function sweepCells(
  bars: BarSeries,
  template: StrategyTemplate,
  cells: readonly ResolvedParameters[],
  initialCapital: number,
  execution: ExecutionSettings = FRICTIONLESS,
): CellMetrics[] {
  if (!(initialCapital > 0 && Number.isFinite(initialCapital))) throw new RangeError('The initial capital must be a positive number.');
  const single = (params: ResolvedParameters) => cellMetricsOf(runTemplateBacktest(bars, template, params, initialCapital, execution).metrics);
  const model = new ExecutionModel(execution);
  // A cell skips ahead from one signal that acts to the next: with an exit set, every cell runs runTemplateBacktest.
  const rules = bars.dates.length > 0 && skipsBarsSafely(model) ? cellRules(template.id, bars) : undefined;
  if (!rules || cells.length === 0) return cells.map(single);
  const context = new CellContext(bars, initialCapital, model);
  return cells.map((params) => {
    const rule = rules(params);
    return rule ? ruleCell(context, rule) : single(params);
  });
}
