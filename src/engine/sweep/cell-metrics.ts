/** The seven metrics a sweep answers for each cell, and how cells are ranked by one of them. */
import type { BacktestMetrics } from '../types.js';

/** Unrounded, equal to the same fields of runTemplateBacktest(...).metrics. */
export interface CellMetrics {
  readonly total_return: number;
  readonly annualized_return: number | null;
  readonly sharpe_ratio: number | null;
  readonly max_drawdown: number;
  readonly win_rate: number | null;
  readonly profit_factor: number | null;
  readonly total_trades: number;
}

export type SweepObjective = 'sharpe_ratio' | 'total_return' | 'annualized_return' | 'profit_factor' | 'max_drawdown' | 'win_rate';

export const SWEEP_OBJECTIVES: readonly SweepObjective[] = Object.freeze([
  'sharpe_ratio',
  'total_return',
  'annualized_return',
  'profit_factor',
  'max_drawdown',
  'win_rate',
] as const);

export function cellMetricsOf(metrics: BacktestMetrics): CellMetrics {
  return {
    total_return: metrics.total_return,
    annualized_return: metrics.annualized_return,
    sharpe_ratio: metrics.sharpe_ratio,
    max_drawdown: metrics.max_drawdown,
    win_rate: metrics.win_rate,
    profit_factor: metrics.profit_factor,
    total_trades: metrics.total_trades,
  };
}

/**
 * The index of the cell with the highest objective value (max_drawdown is ≤ 0, so the shallowest); null ranks
 * below every number; of equal values the lowest index wins (the earliest cell in the parameter order). With every
 * value null, 0. A thin cell (fewer than `minTrades` round trips) ranks below every cell with enough, so it is best
 * only when every cell is thin. Requires at least one cell.
 */
export function bestCellIndex(metrics: readonly CellMetrics[], objective: SweepObjective, minTrades = 0): number {
  if (metrics.length === 0) throw new RangeError('bestCellIndex needs at least one cell.');
  let best = 0;
  for (let i = 1; i < metrics.length; i++) {
    if (ranksAbove(metrics[i]!, metrics[best]!, objective, minTrades)) best = i;
  }
  return best;
}

/** Fewer round trips than the minimum: too few for its figures to mean much, so never ranked above a cell with enough. */
export function isThin(metrics: CellMetrics, minTrades: number): boolean {
  return metrics.total_trades < minTrades;
}

function ranksAbove(cell: CellMetrics, other: CellMetrics, objective: SweepObjective, minTrades: number): boolean {
  const thin = isThin(cell, minTrades);
  if (thin !== isThin(other, minTrades)) return !thin;
  const value = cell[objective];
  const otherValue = other[objective];
  return value !== null && (otherValue === null || value > otherValue);
}
