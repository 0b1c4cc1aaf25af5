/**
 * The backtest report (docs/backtesting.md "The backtest report"): figures a trader reads after the metrics,
 * computed from a finished run alone. Generic over the run's kind: template backtests, library replays and options
 * replays all hand over their dates, equity and closed trades in this shape.
 */

/** One closed position: the dates it was opened and closed ('YYYY-MM-DD') and its return as a fraction. */
export interface ReportTrade {
  readonly entry_date: string;
  readonly exit_date: string;
  readonly return: number;
}

export interface ReportInput {
  /** Ascending, unique 'YYYY-MM-DD' dates, aligned with `equity`. */
  readonly dates: readonly string[];
  /** Equity at each date's close. */
  readonly equity: ArrayLike<number>;
  /** The capital before the first date: the base of the first month's and year's return. */
  readonly initialCapital: number;
  readonly trades: readonly ReportTrade[];
}

export interface MonthReturn {
  year: number;
  month: number;
  return: number;
}

export interface YearReturn {
  year: number;
  return: number;
}

export interface DrawdownPeriod {
  /** The last date at the peak before the fall. */
  start: string;
  /** The first date at the period's lowest equity. */
  trough: string;
  /** The first date back at (or above) the peak; null if the equity never got back. */
  end: string | null;
  /** trough equity / peak equity − 1, ≤ 0. */
  depth: number;
  /** Calendar days from start to end, or to the last date when not recovered. */
  days: number;
}

export interface RollingFigures {
  window_days: number;
  /** The date ending each window (the first has `window_days` daily returns before it). */
  dates: string[];
  sharpe: (number | null)[];
  volatility: (number | null)[];
}

export interface ReturnBin {
  /** Inclusive lower edge. */
  from: number;
  /** Exclusive upper edge. */
  to: number;
  count: number;
}

export interface BacktestReport {
  monthly_returns: MonthReturn[];
  yearly_returns: YearReturn[];
  worst_drawdowns: DrawdownPeriod[];
  rolling: RollingFigures;
  trade_returns: { bins: ReturnBin[] };
  time_in_market: number | null;
  best_month: MonthReturn | null;
  worst_month: MonthReturn | null;
  longest_losing_streak: number;
}
