/**
 * Types of the options replay (POST /api/backtest/run for `iron_condor` and `vertical_spread` strategies): legs
 * priced by a stated model, not by market quotes (DESIGN.md "Options strategies in backtests (modeled prices)").
 * Pure data; the service, the engine and the web app share these.
 */
import type { BarSeries } from '../types.js';
import type { LibraryStats } from '../replay/types.js';
import type { CostsPaid } from '../execution/settings.js';

export type VerticalStructure = 'put_credit' | 'call_credit' | 'put_debit' | 'call_debit';

/** Exactly one of `short_delta` (0–1, exclusive) and `short_otm_pct` (a fraction, 0.05 = 5 % out of the money). */
interface ShortStrikeTarget {
  readonly short_delta?: number;
  readonly short_otm_pct?: number;
}

/** A vertical spread: `width` dollars between its two strikes, `dte` calendar days to expiry at the entry. */
export interface VerticalSpec extends ShortStrikeTarget {
  readonly structure: VerticalStructure;
  readonly width: number;
  readonly dte: number;
}

/** An iron condor: a put credit spread and a call credit spread, each `wing_width` dollars wide. */
export interface IronCondorSpec extends ShortStrikeTarget {
  readonly wing_width: number;
  readonly dte: number;
}

/** As stored on the strategy (its `options_spec` column, JSON) and as the API takes and answers it. */
export type OptionsSpec = VerticalSpec | IronCondorSpec;

export type OptionsStrategyType = 'iron_condor' | 'vertical_spread';

export type OptionsExitReason = 'stop_loss' | 'profit_target' | 'max_dte' | 'exit_rule' | 'expiry' | 'end_of_period';

/** The strategy's numbers the options replay needs (mapped from the stored row by the service). */
export interface OptionsReplayStrategy {
  readonly type: OptionsStrategyType;
  readonly spec: OptionsSpec;
  /** entry_max_position_size: the most one entry may put at risk (its maximum loss); null = the cash. */
  readonly maxPositionSize: number | null;
  /** credit_min_amount, per share as quoted: an entry whose net credit is smaller is skipped; null = none. */
  readonly creditMinAmount: number | null;
  /** exit_profit_target_pct (> 0), a fraction of the credit; null = none. */
  readonly profitTargetPct: number | null;
  /** exit_stop_loss_pct (< 0), a fraction of the credit; null = none. */
  readonly stopLossPct: number | null;
  /** exit_max_dte: close when the calendar days to expiry are at most this; null = none. */
  readonly exitMaxDte: number | null;
}

/** The one underlying the options replay runs on. */
export interface OptionsReplayInput {
  readonly symbol: string;
  readonly bars: BarSeries;
  /** Aligned with the bars (1 = the entry rule holds on that close). null: no entry_rule (enter whenever flat). */
  readonly entry: Uint8Array | null;
  /** Aligned with the bars. null: no exit_rule. */
  readonly exit: Uint8Array | null;
  /**
   * Aligned with the bars: the volatility symbol's close / 100 on that date (its last close carried forward; NaN
   * before its first bar). null: realized_20d from the underlying's own closes.
   */
  readonly volatility: Float64Array | null;
  /** The volatility symbol's name for `pricing.volatility`; null with realized_20d. */
  readonly volatilitySymbol: string | null;
}

export interface OptionsReplaySettings {
  /** costs.commission_per_contract: paid per leg and contract on every fill (not at settlement). */
  readonly commissionPerContract: number;
  /** The continuously compounded risk-free rate (config; 0 unless set). */
  readonly rate: number;
}

/** One leg of a trade. Prices are per share (× 100 per contract), fills with the half-spread paid. */
export interface OptionLeg {
  /** The OCC symbol, compact form (src/compliance/occ-symbol.ts), e.g. "SPX200320P02900000". */
  occ_symbol: string;
  right: 'call' | 'put';
  strike: number;
  /** 'YYYY-MM-DD'. */
  expiry: string;
  side: 'long' | 'short';
  entry_price: number;
  /** The closing fill's price, or the intrinsic value at settlement. */
  exit_price: number;
}

/**
 * One options position, opened and closed. `side` is 'short' for a credit structure, 'long' for a debit one;
 * `entry_price`/`exit_price` are the net premium per share at the entry and at the exit (credit positive for
 * credit structures, debit positive for debit ones); `qty` is contracts.
 */
export interface OptionsTrade {
  symbol: string;
  side: 'long' | 'short';
  entry_date: string;
  entry_price: number;
  exit_date: string;
  exit_price: number;
  qty: number;
  /** Dollars, after commissions: (entry credit − exit debit) × 100 × qty − commission for a credit structure. */
  pnl: number;
  /** pnl / the maximum loss committed at the entry. */
  return: number;
  exit_reason: OptionsExitReason;
  commission: number;
  /** The net credit per share at the entry (negative for a debit). */
  credit: number;
  legs: OptionLeg[];
}

/** `pricing` in the answer: what the prices are, so no one mistakes them for market quotes. */
export interface OptionsPricing {
  model: 'black_scholes';
  /** 'realized_20d', or the volatility symbol's name. */
  volatility: string;
  /** The modeled bid–ask spread's rule, in words: "max(5 % of the model price, $0.05); a fill pays half". */
  spread: string;
  rate: number;
}

/** What `replayOptionsStrategy` computes (the service adds the strategy id; the rest matches the equity replay). */
export interface OptionsReplay {
  start_date: string;
  end_date: string;
  starting_capital: number;
  final_capital: number;
  symbols: string[];
  dates: string[];
  /** Cash plus the open position marked to the model (no spread) on each close. */
  equity_curve: number[];
  drawdowns: number[];
  trades: OptionsTrade[];
  stats: LibraryStats;
  pricing: OptionsPricing;
  costs_paid: CostsPaid;
  /** Entry signals skipped: credit below credit_min_amount, no contract affordable, or no volatility yet to price with. */
  skipped_entries: { credit_below_minimum: number; no_contract_affordable: number; no_volatility: number };
}
