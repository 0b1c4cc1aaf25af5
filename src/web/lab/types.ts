/** The shapes the lab reads from the legacy catalogue and backtest API (docs/market-data.md, "HTTP API"). */

export interface TemplateParameter {
  readonly name: string;
  readonly type: 'integer' | 'number' | string;
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

export interface SymbolEntry {
  readonly symbol: string;
  readonly name: string;
}

export type DataFeed = 'delayed_sip' | 'sip';

/** Every summary statistic; the nullable ones are null when their denominator is 0 (docs/backtesting.md). */
export interface BacktestMetrics {
  readonly total_return: number;
  readonly annualized_return: number | null;
  readonly sharpe_ratio: number | null;
  readonly max_drawdown: number;
  readonly win_rate: number | null;
  readonly profit_factor: number | null;
  readonly total_trades: number;
  readonly winning_trades: number;
  readonly losing_trades: number;
  readonly avg_profit: number | null;
  readonly avg_loss: number | null;
  readonly avg_holding_days: number | null;
}

export interface BacktestTrade {
  readonly date: string;
  readonly type: 'BUY' | 'SELL';
  readonly price: number;
  readonly shares: number;
  readonly value: number;
  readonly pnl: number | null;
  readonly return: number | null;
  readonly duration: number | null;
}

export interface BacktestResult extends BacktestMetrics {
  readonly symbol: string;
  readonly strategy_name: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly initial_capital: number;
  readonly final_capital: number;
  readonly data_feed: string;
  readonly dates: readonly string[];
  readonly equity_curve: readonly number[];
  readonly drawdowns: readonly number[];
  readonly trades: readonly BacktestTrade[];
}

export interface ComparisonEntry extends BacktestMetrics {
  readonly id: string;
  readonly name: string;
  readonly equity_curve: readonly number[];
}

export interface ComparisonResult {
  readonly symbol: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly initial_capital: number;
  readonly data_feed: string;
  readonly dates: readonly string[];
  readonly strategies: readonly ComparisonEntry[];
}
