/**
 * The Strategy Library API as the web app reads it (docs/strategies.md, docs/backtesting.md "Library backtest").
 * The backtest's shapes are the server's own types; the library and compliance shapes are declared here until
 * their schemas are on main, then become type-only imports of them, as lab/types.ts does for the engine.
 */
import type { Static } from 'typebox';
import type { LibraryBacktestRequest as LibraryBacktestRequestSchema } from '../../backtest/library-backtest.schema';

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

/**
 * `POST /api/backtest/run`: the server's own types (type-only imports, nothing of the server is bundled), so the
 * page and the replay cannot drift apart.
 */
export type { ExitReason, LibraryBacktestResult, LibraryStats, LibraryTrade } from '../../backtest/library/types';
export type LibraryBacktestRequest = Static<typeof LibraryBacktestRequestSchema>;
