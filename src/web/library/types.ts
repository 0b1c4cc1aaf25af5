/**
 * The Strategy Library API as the web app reads it (docs/strategies.md, docs/backtesting.md "Library backtest";
 * /work/shared/spec/service-contract.md). Declared here while the server's schemas are being written on other
 * branches; at merge these become type-only imports of those schemas, as lab/types.ts does for the engine.
 */

export type StrategyType = 'iron_condor' | 'vertical_spread' | 'equity_long' | 'equity_short' | 'custom';
export type AllowedSides = 'buy' | 'sell' | 'buy,sell';
export type OrderSide = 'buy' | 'sell';

/** One Strategy Library entry (create, read, update and list answers). Rule fields are null when unset. */
export interface StrategyView {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly strategy_type: StrategyType;
  readonly is_active: boolean;
  /** Comma-separated tickers, e.g. "SPX,QQQ". */
  readonly entry_symbol_allowlist: string | null;
  /** Dollars per trade. */
  readonly entry_max_position_size: number | null;
  readonly entry_allowed_sides: AllowedSides | null;
  /** Dollars, credit strategies only. */
  readonly credit_min_amount: number | null;
  /** Decimal fraction: 0.2 = +20 %. */
  readonly exit_profit_target_pct: number | null;
  /** Decimal fraction, negative: -0.5 = −50 %. */
  readonly exit_stop_loss_pct: number | null;
  /** Days to expiry, options entries only. */
  readonly exit_max_dte: number | null;
  readonly entry_rule: string | null;
  readonly exit_rule: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The fields a create or update sends: everything the person edits. */
export type StrategyFields = Omit<StrategyView, 'id' | 'created_at' | 'updated_at'>;

/** `GET /api/strategies/active`, one entry. */
export interface ActiveStrategy {
  readonly id: number;
  readonly name: string;
  readonly strategy_type: StrategyType;
}

export interface OptionLeg {
  /** An OCC option symbol, e.g. "SPY261218C00450000". */
  readonly symbol: string;
  readonly side: OrderSide;
}

/** `POST /api/trading/compliance-check` body. */
export interface ComplianceRequest {
  readonly strategy_id: number;
  readonly symbol: string;
  readonly qty: number;
  readonly side: OrderSide;
  readonly price?: number;
  readonly order_type?: 'market' | 'limit';
  readonly legs?: readonly OptionLeg[];
}

export type ComplianceRule = 'strategy_active' | 'symbol_allowed' | 'side_allowed' | 'max_position_size' | 'leg_structure' | 'max_dte' | 'min_credit';

export interface ComplianceResult {
  readonly compliant: boolean;
  readonly strategy: StrategyView;
  readonly violations: readonly { readonly rule: ComplianceRule | string; readonly message: string }[];
}

/** `POST /api/backtest/run` body. */
export interface LibraryBacktestRequest {
  readonly strategy_id: number;
  readonly start_date?: string;
  readonly end_date?: string;
  readonly starting_capital?: number;
  readonly symbols?: readonly string[];
}

export type ExitReason = 'stop_loss' | 'profit_target' | 'exit_rule' | 'end_of_period';

/** One round trip of a library backtest. Dates are YYYY-MM-DD. */
export interface LibraryTrade {
  readonly symbol: string;
  readonly side: 'long' | 'short';
  readonly entry_date: string;
  readonly entry_price: number;
  readonly exit_date: string;
  readonly exit_price: number;
  readonly qty: number;
  readonly pnl: number;
  /** Decimal fraction. */
  readonly return: number;
  readonly exit_reason: ExitReason;
}

/** Summary statistics; fractions as in the legacy result, a ratio without a denominator is null. */
export interface LibraryStats {
  readonly total_return: number;
  readonly annualized_return: number | null;
  readonly sharpe_ratio: number | null;
  readonly sortino_ratio: number | null;
  readonly max_drawdown: number;
  readonly win_rate: number | null;
  readonly profit_factor: number | null;
  readonly total_trades: number;
  readonly winning_trades: number;
  readonly losing_trades: number;
  readonly avg_profit: number | null;
  readonly avg_loss: number | null;
  readonly avg_holding_days: number | null;
  /** Fraction of bars with a position open. */
  readonly exposure: number | null;
}

export interface LibraryBacktestResult {
  readonly strategy_id: number;
  readonly start_date: string;
  readonly end_date: string;
  readonly starting_capital: number;
  readonly final_capital: number;
  readonly symbols: readonly string[];
  readonly dates: readonly string[];
  readonly equity_curve: readonly number[];
  readonly drawdowns: readonly number[];
  readonly trades: readonly LibraryTrade[];
  readonly stats: LibraryStats;
}
