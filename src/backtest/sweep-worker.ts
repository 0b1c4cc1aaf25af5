/**
 * The worker thread's side of a sweep and of a Monte Carlo run (sweep-pool.ts). A sweep: one chunk of cells over bars sent as typed arrays, its
 * metrics packed into one Float64Array (METRIC_FIELDS per cell, null as NaN) that is moved back, not copied.
 */
import { Piscina } from 'piscina';
import { findTemplate, sweepCells, type BarSeries, type CellMetrics, type ResolvedParameters } from '../engine/index.js';
import type { ExecutionSettings } from '../engine/execution/settings.js';
import { monteCarlo, type MonteCarloInput, type MonteCarloResult } from '../engine/monte-carlo/index.js';

export interface SweepChunk {
  readonly templateId: string;
  readonly bars: BarSeries;
  readonly cells: readonly ResolvedParameters[];
  readonly initialCapital: number;
  /** Plain data, copied to the thread. */
  readonly execution: ExecutionSettings;
}

/** The packed order of a cell's metrics. */
export const METRIC_FIELDS = ['total_return', 'annualized_return', 'sharpe_ratio', 'max_drawdown', 'win_rate', 'profit_factor', 'total_trades'] as const;

export default function sweepChunk(chunk: SweepChunk): Float64Array {
  const template = findTemplate(chunk.templateId);
  if (!template) throw new RangeError(`No strategy template "${chunk.templateId}".`);
  const packed = packMetrics(sweepCells(chunk.bars, template, chunk.cells, chunk.initialCapital, chunk.execution));
  return Piscina.move(packed) as Float64Array;
}

/** A Monte Carlo run (the pool calls this export by name). */
export function monteCarloTask(input: MonteCarloInput): MonteCarloResult {
  return monteCarlo(input);
}

export function packMetrics(metrics: readonly CellMetrics[]): Float64Array {
  const packed = new Float64Array(metrics.length * METRIC_FIELDS.length);
  let at = 0;
  for (const m of metrics) {
    for (const field of METRIC_FIELDS) packed[at++] = m[field] ?? Number.NaN;
  }
  return packed;
}

export function unpackMetrics(packed: Float64Array, into: CellMetrics[]): void {
  const nullable = (x: number) => (Number.isNaN(x) ? null : x);
  for (let at = 0; at < packed.length; at += METRIC_FIELDS.length) {
    into.push({
      total_return: packed[at]!,
      annualized_return: nullable(packed[at + 1]!),
      sharpe_ratio: nullable(packed[at + 2]!),
      max_drawdown: packed[at + 3]!,
      win_rate: nullable(packed[at + 4]!),
      profit_factor: nullable(packed[at + 5]!),
      total_trades: packed[at + 6]!,
    });
  }
}
