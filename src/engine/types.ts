import type { CostsPaid, TemplateExitReason } from './execution/settings.js';

/**
 * Types shared by the engine's modules. Pure data: nothing here imports Fastify or Kysely.
 * The conventions behind every field are written down in docs/backtesting.md.
 */

/** Daily bars, columnar and aligned: `dates` ascending and unique, one entry per bar in every column. */
export interface BarSeries {
  readonly dates: readonly string[]; // 'YYYY-MM-DD'
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

export interface TemplateParameter {
  readonly name: string;
  readonly type: 'integer' | 'number';
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly description: string;
}

export interface StrategyTemplate {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly TemplateParameter[];
}

export interface SuppliedParameter {
  readonly name: string;
  readonly value: number;
}

/** Every parameter of a template by name, defaults filled in, validated. */
export type ResolvedParameters = Readonly<Record<string, number>>;

export interface BacktestTrade {
  /** ISO 8601 UTC timestamp of the fill bar, 'YYYY-MM-DDT00:00:00.000Z'. */
  date: string;
  type: 'BUY' | 'SELL';
  price: number;
  shares: number;
  /** shares × price. */
  value: number;
  /** SELL: sell value − buy value. null on a BUY. */
  pnl: number | null;
  /** SELL: sell price / buy price − 1. null on a BUY. */
  return: number | null;
  /** SELL: calendar days from the BUY fill date to the SELL date. null on a BUY. */
  duration: number | null;
  /** This fill's commission (execution/costs.ts); 0 without costs. */
  commission: number;
  /** SELL only (absent on a BUY): why the position was closed. */
  exit_reason?: TemplateExitReason;
}

/** Summary statistics; formulas in metrics.ts and docs/backtesting.md. A ratio with a zero denominator is null. */
export interface BacktestMetrics {
  final_capital: number;
  total_return: number;
  annualized_return: number | null;
  sharpe_ratio: number | null;
  /** The lowest drawdown, a fraction ≤ 0 (−0.25 = a 25 % fall from the peak). */
  max_drawdown: number;
  win_rate: number | null;
  profit_factor: number | null;
  total_trades: number;
  winning_trades: number;
  losing_trades: number;
  avg_profit: number | null;
  avg_loss: number | null;
  avg_holding_days: number | null;
}

export interface BacktestRun {
  /** Aligned with the bars: equity[t] = cash + shares × close[t]; equity[0] is the initial capital. */
  equity: Float64Array;
  /** Aligned with the bars: equity[t] / max(equity[0..t]) − 1, always ≤ 0. */
  drawdowns: Float64Array;
  trades: BacktestTrade[];
  metrics: BacktestMetrics;
  /** Σ commissions and Σ |fill − reference| × shares over every fill (0 and 0 without costs). */
  costs_paid: CostsPaid;
  /** Entry signals that acted (the account flat) but whose buy found q = 0: too little cash or budget for one share and its commission. */
  unfilled_entries: number;
}
