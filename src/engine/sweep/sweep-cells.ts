/** Every cell of a sweep over the same bars: each cell's seven metrics, as runTemplateBacktest gives them. */
import { runTemplateBacktest } from '../run-template.js';
import type { BarSeries, ResolvedParameters, StrategyTemplate } from '../types.js';
import { cellMetricsOf, type CellMetrics } from './cell-metrics.js';
import { CellContext, crossoverCell, crossoverSeries } from './crossover-cells.js';

/**
 * Each cell's metrics over the bars, equal to runTemplateBacktest's. The crossover templates share each indicator
 * series between the cells of the call (crossover-cells.ts); the others, and a cell too short to trade, run
 * runTemplateBacktest per cell. Pure, synchronous, deterministic.
 */
export function sweepCells(
  bars: BarSeries,
  template: StrategyTemplate,
  cells: readonly ResolvedParameters[],
  initialCapital: number,
): CellMetrics[] {
  if (!(initialCapital > 0 && Number.isFinite(initialCapital))) throw new RangeError('The initial capital must be a positive number.');
  const single = (params: ResolvedParameters) => cellMetricsOf(runTemplateBacktest(bars, template, params, initialCapital).metrics);
  const seriesOf = bars.dates.length > 0 ? crossoverSeries(template.id, bars.close) : undefined;
  if (!seriesOf || cells.length === 0) return cells.map(single);
  const context = new CellContext(bars, initialCapital);
  return cells.map((params) => {
    const series = seriesOf(params);
    return series ? crossoverCell(context, series.fast, series.slow, series.first) : single(params);
  });
}
