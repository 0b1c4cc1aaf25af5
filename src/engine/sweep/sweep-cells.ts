/** Every cell of a sweep over the same bars: each cell's seven metrics, as runTemplateBacktest gives them. */
import { runTemplateBacktest } from '../run-template.js';
import type { BarSeries, ResolvedParameters, StrategyTemplate } from '../types.js';
import { cellMetricsOf, type CellMetrics } from './cell-metrics.js';

/** Each cell's metrics over the bars. Pure, synchronous, deterministic. */
export function sweepCells(
  bars: BarSeries,
  template: StrategyTemplate,
  cells: readonly ResolvedParameters[],
  initialCapital: number,
): CellMetrics[] {
  return cells.map((params) => cellMetricsOf(runTemplateBacktest(bars, template, params, initialCapital).metrics));
}
