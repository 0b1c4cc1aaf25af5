import { formatCount, formatPercent, formatRatio } from '../ui/format';
import type { Objective, SweepCell, SweepMetrics } from './sweep-types';

/** Each objective's name on the page and how its value reads; every objective ranks the highest value best. */
export const OBJECTIVE_LABELS: Readonly<Record<Objective, string>> = {
  sharpe_ratio: 'Sharpe ratio',
  total_return: 'Total return',
  annualized_return: 'Annualized return',
  profit_factor: 'Profit factor',
  max_drawdown: 'Max drawdown (shallowest best)',
  win_rate: 'Win rate',
};

/** The seven metrics in the order the page lists them, with their format. */
export const METRICS: readonly { key: keyof SweepMetrics; label: string; format: (value: number | null) => string }[] = [
  { key: 'total_return', label: 'Total return', format: formatPercent },
  { key: 'annualized_return', label: 'Annualized', format: formatPercent },
  { key: 'sharpe_ratio', label: 'Sharpe', format: formatRatio },
  { key: 'max_drawdown', label: 'Max drawdown', format: formatPercent },
  { key: 'win_rate', label: 'Win rate', format: formatPercent },
  { key: 'profit_factor', label: 'Profit factor', format: formatRatio },
  { key: 'total_trades', label: 'Trades', format: formatCount },
];

export function formatObjective(objective: Objective, value: number | null): string {
  return METRICS.find((metric) => metric.key === objective)!.format(value);
}

/** The objective's value of a cell; null (no denominator) and what is not finite rank below every number. */
export function objectiveValue(cell: SweepMetrics, objective: Objective): number | null {
  const value = cell[objective];
  return value === null || !Number.isFinite(value) ? null : value;
}

/**
 * The `count` best cells by the objective, highest first, thin cells (too few trades) after every other; ties (and
 * nulls among themselves) keep the server's cell order, as the server's own rule does, so the first row is always
 * the server's `best`.
 */
export function topCells(cells: readonly SweepCell[], objective: Objective, count: number): SweepCell[] {
  return cells
    .map((cell, index) => ({ cell, index, value: objectiveValue(cell, objective) }))
    .sort((a, b) => {
      if (a.cell.thin !== b.cell.thin) return a.cell.thin ? 1 : -1;
      if (a.value === null || b.value === null) return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      return b.value - a.value || a.index - b.index;
    })
    .slice(0, count)
    .map((entry) => entry.cell);
}

/** Why a thin cell is not ranked, in words for its row, tooltip and readout. */
export function thinNote(minTrades: number): string {
  return `fewer than ${formatCount(minTrades)} trades: ranked below every cell with enough`;
}

/**
 * What an out-of-sample run without a single trade means, in words instead of bare zeros; undefined when it traded.
 * `from` and `to` are its first and last days; `params` the chosen parameters in words.
 */
export function noTradeNote(run: SweepMetrics, params: string, from: string, to: string): string | undefined {
  if (run.total_trades > 0) return undefined;
  return `No trade in this window: the chosen parameters (${params.charAt(0).toLowerCase()}${params.slice(1)}) never signalled between ${from} and ${to}; its return is 0 by holding cash, and the ratios that need a trade have no value.`;
}

/**
 * The plain warning under an in-sample / out-of-sample comparison (docs/web-app.md, "Optimize"), or undefined.
 * Returns are compared per year, because the two periods differ in length: the best in-sample cell made money
 * (annualized return above 0) and out of sample it lost money, or made less than half as much a year.
 */
export function outOfSampleWarning(inSample: SweepMetrics, outOfSample: SweepMetrics): string | undefined {
  const before = inSample.annualized_return;
  const after = outOfSample.annualized_return;
  if (before === null || after === null || !(before > 0)) return undefined;
  if (after < 0) {
    return `Out of sample the best in-sample parameters lost money (${formatPercent(after)} a year against ${formatPercent(before)} in sample): the best cell is likely fitted to the past.`;
  }
  if (after < before / 2) {
    return `Out of sample the best in-sample parameters made less than half as much a year (${formatPercent(after)} against ${formatPercent(before)} in sample): the best cell is likely fitted to the past.`;
  }
  return undefined;
}
