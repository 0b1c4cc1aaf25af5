/**
 * Types of the library backtest (POST /api/backtest/run): a user's library strategy replayed over several symbols
 * with one shared cash. Pure data, no imports beyond the engine's types; the web app imports these too.
 * Conventions: docs/backtesting.md "Library backtest".
 */
import type { ExecutionSettings } from '../execution/settings.js';
import type { BacktestMetrics, BarSeries } from '../types.js';

export type PositionSide = 'long' | 'short';
export type ExitReason = 'stop_loss' | 'trailing_stop' | 'profit_target' | 'exit_rule' | 'end_of_period';

/** One symbol's input: its bars and the rules' signals on them (1 = the condition holds on that bar's close). */
export interface SymbolReplayInput {
  readonly symbol: string;
  readonly bars: BarSeries;
  /** Aligned with the bars. null: the strategy has no entry_rule (enter once, on the first bar's signal). */
  readonly entry: Uint8Array | null;
  /** Aligned with the bars. null: the strategy has no exit_rule. */
  readonly exit: Uint8Array | null;
}

/** The strategy's numbers the replay needs (already mapped from the stored row by the service). */
export interface ReplayStrategy {
  readonly side: PositionSide;
  /** entry_max_position_size: the most currency one entry may commit; null = no cap beyond cash. */
  readonly maxPositionSize: number | null;
  /** exit_profit_target_pct, a fraction > 0 of the entry price (0.2 = +20 %); null = none. */
  readonly profitTargetPct: number | null;
  /** exit_stop_loss_pct, a fraction < 0 of the entry price (−0.1 = −10 %); null = none. */
  readonly stopLossPct: number | null;
  /** exit_trailing_stop_pct, a fraction > 0 (0.1 = 10 %) below the highest close since the entry (short: above the lowest); null = none. */
  readonly trailingStopPct: number | null;
}

/** The execution settings a library replay takes: its exits are the strategy's own rule fields (ReplayStrategy). */
export type ReplayExecution = Pick<ExecutionSettings, 'costs' | 'sizing'>;

export interface LibraryTrade {
  symbol: string;
  side: PositionSide;
  /** 'YYYY-MM-DD' of the fill bar. */
  entry_date: string;
  entry_price: number;
  exit_date: string;
  exit_price: number;
  qty: number;
  /** long: qty × (exit − entry); short: qty × (entry − exit). */
  pnl: number;
  /** long: exit / entry − 1; short: (entry − exit) / entry. */
  return: number;
  exit_reason: ExitReason;
  /** The commissions of both fills, the entry's and the exit's (0 without costs). */
  commission: number;
}

/** The template metrics but `final_capital` (a field of the result), and the Sortino ratio and exposure beside them. */
export interface LibraryStats extends Omit<BacktestMetrics, 'final_capital'> {
  sortino_ratio: number | null;
  exposure: number | null;
}

/** The response body of POST /api/backtest/run, fields in the order DESIGN.md lists them. */
export interface LibraryBacktestResult {
  strategy_id: number;
  /** First and last date of the timeline, 'YYYY-MM-DD'. */
  start_date: string;
  end_date: string;
  starting_capital: number;
  final_capital: number;
  /** The replayed symbols, sorted. */
  symbols: string[];
  /** The timeline: the sorted union of the symbols' bar dates. */
  dates: string[];
  equity_curve: number[];
  drawdowns: number[];
  /** Sorted by entry date, then symbol. */
  trades: LibraryTrade[];
  stats: LibraryStats;
}

/** What `replayStrategy` computes: the result without the strategy id, which the service adds. */
export type LibraryReplay = Omit<LibraryBacktestResult, 'strategy_id'>;
