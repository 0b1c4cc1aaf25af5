/**
 * What a library strategy allows, read from its stored fields in one place: the symbols, the sides, the position
 * size cap and whether it trades option legs. Pure (no I/O); the compliance rules, the library replay and the order
 * routes all ask these functions, so a strategy means the same thing to each of them.
 */
import type { PositionSide } from '../engine/replay/types.js';

export const STRATEGY_TYPES = ['iron_condor', 'vertical_spread', 'equity_long', 'equity_short', 'custom'] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];

/** The stored forms of `entry_allowed_sides`. */
export const ALLOWED_SIDES = ['buy', 'sell', 'buy,sell'] as const;
export type AllowedSides = (typeof ALLOWED_SIDES)[number];
export type OrderSide = 'buy' | 'sell';

/** Shares per option contract. */
export const CONTRACT_MULTIPLIER = 100;

export const OPTIONS_STRATEGY_TYPES: ReadonlySet<StrategyType> = new Set(['vertical_spread', 'iron_condor']);
export const EQUITY_STRATEGY_TYPES: ReadonlySet<StrategyType> = new Set(['equity_long', 'equity_short']);

/** A strategy's rule fields as stored (null: no constraint), whichever layer holds it: a row or its API view. */
export interface StrategyPolicy {
  readonly strategy_type: StrategyType;
  readonly is_active: boolean;
  readonly entry_symbol_allowlist: string | null;
  readonly entry_max_position_size: number | null;
  readonly entry_allowed_sides: AllowedSides | null;
  readonly credit_min_amount: number | null;
  readonly exit_profit_target_pct: number | null;
  readonly exit_stop_loss_pct: number | null;
  readonly exit_max_dte: number | null;
}

/**
 * The allowlist's symbols in stored order, each once, upper-case and trimmed (rows written before validation
 * or by hand may hold ` ccc`); null when the strategy has no allowlist.
 */
export function allowedSymbols(strategy: Pick<StrategyPolicy, 'entry_symbol_allowlist'>): string[] | null {
  const text = strategy.entry_symbol_allowlist;
  if (text === null) return null;
  return [...new Set(text.split(',').map((symbol) => symbol.trim().toUpperCase()).filter(Boolean))];
}

/** The sides the strategy may enter on; null when it allows both without saying so. */
export function allowedSides(strategy: Pick<StrategyPolicy, 'entry_allowed_sides'>): OrderSide[] | null {
  return strategy.entry_allowed_sides === null ? null : (strategy.entry_allowed_sides.split(',') as OrderSide[]);
}

/** What one entry commits: qty × price, × 100 per contract for an options order (price is then per share). */
export function positionSize(qty: number, price: number, options: boolean): number {
  return qty * price * (options ? CONTRACT_MULTIPLIER : 1);
}

/** Whether the strategy trades option legs (vertical spreads, iron condors) rather than shares. */
export function tradesOptions(strategy: Pick<StrategyPolicy, 'strategy_type'>): boolean {
  return OPTIONS_STRATEGY_TYPES.has(strategy.strategy_type);
}

/**
 * The side a position of this strategy takes in a replay: equity_long long, equity_short short, custom short only
 * when it may only sell; null for options strategies (no options data to replay them on).
 */
export function positionSideOf(strategy: Pick<StrategyPolicy, 'strategy_type' | 'entry_allowed_sides'>): PositionSide | null {
  switch (strategy.strategy_type) {
    case 'equity_long':
      return 'long';
    case 'equity_short':
      return 'short';
    case 'custom':
      return strategy.entry_allowed_sides === 'sell' ? 'short' : 'long';
    default:
      return null;
  }
}
