/**
 * The backtest report and the Monte Carlo answer as the web app reads them (DESIGN "The backtest report and Monte
 * Carlo"; docs/backtesting.md). Dates are `YYYY-MM-DD`; returns and depths are fractions.
 */

export interface MonthlyReturn {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly return: number;
}

export interface YearlyReturn {
  readonly year: number;
  readonly return: number;
}

export interface DrawdownPeriod {
  /** The last day at the peak. */
  readonly start: string;
  /** The first day at the low. */
  readonly trough: string;
  /** The first day back at the peak; null when not recovered. */
  readonly end: string | null;
  /** ≤ 0. */
  readonly depth: number;
  /** Calendar days from start to end, or to the last date. */
  readonly days: number;
}

export interface BacktestReport {
  readonly monthly_returns: readonly MonthlyReturn[];
  readonly yearly_returns: readonly YearlyReturn[];
  readonly worst_drawdowns: readonly DrawdownPeriod[];
  readonly rolling: {
    readonly window_days: number;
    readonly dates: readonly string[];
    readonly sharpe: readonly (number | null)[];
    readonly volatility: readonly (number | null)[];
  };
  readonly trade_returns: { readonly bins: readonly { readonly from: number; readonly to: number; readonly count: number }[] };
  readonly time_in_market: number | null;
  readonly best_month: MonthlyReturn | null;
  readonly worst_month: MonthlyReturn | null;
  readonly longest_losing_streak: number;
}

export type MonteCarloMethod = 'bootstrap' | 'shuffle';

export interface Percentiles {
  readonly p5: number;
  readonly p25: number;
  readonly p50: number;
  readonly p75: number;
  readonly p95: number;
}

/** The equity paths' percentile at each trade number (0 is the starting capital). */
export interface PathBands {
  readonly p5: readonly number[];
  readonly p25: readonly number[];
  readonly p50: readonly number[];
  readonly p75: readonly number[];
  readonly p95: readonly number[];
}

export interface MonteCarloResult {
  readonly runs: number;
  readonly seed: number;
  readonly method: MonteCarloMethod;
  /** The closed trades resampled. */
  readonly trades: number;
  readonly final_equity: Percentiles;
  readonly max_drawdown: Percentiles;
  readonly probability_of_loss: number;
  readonly bands: PathBands;
}
