/**
 * The shapes of `POST /api/backtest/sweep` (docs/backtesting.md, "Parameter sweeps"): what the Optimize view sends
 * and reads back. Metrics are rounded as in every backtest body (money to the cent, fractions to 8 decimals).
 * Narrower than the server's schema types (the objective is one of six names, not any string); the checks at the
 * end fail the type-check when the two drift apart. Type-only imports: nothing of the server is bundled.
 */
import type { ExecutionRequest } from './execution-inputs';
import type { SweepRequest as ServerSweepRequest, SweepResult as ServerSweepResult } from '../../backtest/sweep.schema';

export const OBJECTIVES = ['sharpe_ratio', 'total_return', 'annualized_return', 'profit_factor', 'max_drawdown', 'win_rate'] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** The seven figures the sweep gives for every cell, every split side and every walk-forward window. */
export interface SweepMetrics {
  readonly total_return: number;
  readonly annualized_return: number | null;
  readonly sharpe_ratio: number | null;
  readonly max_drawdown: number;
  readonly win_rate: number | null;
  readonly profit_factor: number | null;
  readonly total_trades: number;
}

export interface SweepCell extends SweepMetrics {
  readonly params: Readonly<Record<string, number>>;
  /** Fewer round-trip trades than the sweep's min_trades: ranked below every cell with enough. */
  readonly thin: boolean;
}

export type GridAxis = { readonly min: number; readonly max: number; readonly step: number } | number[];

export type SweepValidation =
  | { readonly split_date: string }
  | { readonly in_sample_fraction: number }
  | { readonly walk_forward: { readonly windows: number; readonly in_sample_fraction: number } };

/** With the execution settings the Optimize form always sends (execution-inputs.ts). */
export interface SweepRequest extends ExecutionRequest {
  readonly symbol: string;
  readonly strategy: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly initial_capital: number;
  readonly data_feed?: string;
  readonly grid: Readonly<Record<string, GridAxis>>;
  readonly objective: Objective;
  readonly min_trades?: number;
  readonly validation?: SweepValidation;
}

export interface DateSpan {
  readonly start_date: string;
  readonly end_date: string;
}

export interface WalkForwardWindow {
  readonly in_sample: DateSpan & SweepMetrics;
  readonly out_of_sample: DateSpan & SweepMetrics;
  readonly params: Readonly<Record<string, number>>;
}

export interface WalkForwardResult {
  readonly windows: readonly WalkForwardWindow[];
  readonly dates: readonly string[];
  readonly equity_curve: readonly number[];
  readonly metrics: SweepMetrics;
}

export type SweepValidationResult =
  | { readonly split_date: string; readonly in_sample: SweepCell; readonly out_of_sample: SweepMetrics }
  | { readonly walk_forward: WalkForwardResult };

export interface SweepResult {
  readonly symbol: string;
  readonly strategy: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly objective: Objective;
  /** The minimum of round-trip trades a cell needs to rank. */
  readonly min_trades: number;
  /** The varied parameters, in the template's order: rows, then columns of the heat map. */
  readonly parameters: readonly string[];
  readonly cells: readonly SweepCell[];
  readonly skipped_cells: number;
  readonly best: SweepCell;
  readonly validation?: SweepValidationResult;
}

type Holds<T extends true> = T;
/**
 * The server's answer is what the page reads, and the page's request one the server's schema takes, objectives
 * aside (the schema builds its objective union with `.map`, which its static type does not follow).
 */
export type SweepShapesAgree = Holds<
  Omit<ServerSweepResult, 'objective'> extends Omit<SweepResult, 'objective'>
    ? Omit<SweepRequest, 'objective'> extends Omit<ServerSweepRequest, 'objective'>
      ? true
      : false
    : false
>;
