/**
 * The compliance rules: a declarative list, each an id, when it applies to a strategy, and a check of one
 * proposed trade that answers a message or null. Pure (no I/O, no clock): the caller puts today's New York
 * date and the reference price into the context. The compliance check answers these; the order routes
 * enforce the same list. What a strategy allows is read through the one strategy policy.
 */
import { calendarDaysBetween } from '../engine/dates.js';
import {
  allowedSides,
  allowedSymbols,
  CONTRACT_MULTIPLIER,
  EQUITY_STRATEGY_TYPES,
  positionSize,
  tradesOptions,
  type StrategyPolicy,
} from '../strategies/strategy-policy.js';
import type { OccOption } from './occ-symbol.js';

export type ComplianceRuleId =
  | 'strategy_active'
  | 'symbol_allowed'
  | 'side_allowed'
  | 'max_position_size'
  | 'leg_structure'
  | 'max_dte'
  | 'min_credit';

export type ComplianceStrategy = Pick<
  StrategyPolicy,
  'strategy_type' | 'is_active' | 'entry_symbol_allowlist' | 'entry_max_position_size' | 'entry_allowed_sides' | 'credit_min_amount' | 'exit_max_dte'
>;

export interface OptionLeg extends OccOption {
  readonly side: 'buy' | 'sell';
}

/** A proposed entry. For an options order (one with legs) `price` is the net price per share, as quoted. */
export interface ComplianceTrade {
  readonly symbol: string;
  readonly qty: number;
  readonly side: 'buy' | 'sell';
  readonly price: number | null;
  readonly legs: readonly OptionLeg[];
}

export interface ComplianceContext {
  /** Today in New York (`YYYY-MM-DD`), the calendar that option expiries follow. */
  readonly today: string;
  /** The request's price, else (equity orders only) the latest stored close, else null. */
  readonly referencePrice: number | null;
  /** What `referencePrice` is, for messages. */
  readonly priceUnknownReason?: string;
}

export interface ComplianceRule {
  readonly id: ComplianceRuleId;
  /** What the rule checks, for documentation and the web app. */
  readonly description: string;
  applies(strategy: ComplianceStrategy): boolean;
  check(strategy: ComplianceStrategy, trade: ComplianceTrade, context: ComplianceContext): string | null;
}

export interface ComplianceViolation {
  readonly rule: ComplianceRuleId;
  readonly message: string;
}

export interface ComplianceOutcome {
  readonly compliant: boolean;
  readonly violations: ComplianceViolation[];
}


export const COMPLIANCE_RULES: readonly ComplianceRule[] = [
  {
    id: 'strategy_active',
    description: 'The strategy is active.',
    applies: () => true,
    check: (strategy) => (strategy.is_active ? null : 'The strategy is not active; activate it before trading with it.'),
  },
  {
    id: 'symbol_allowed',
    description: 'The order’s symbol (the underlying of an options order) is in entry_symbol_allowlist.',
    applies: (strategy) => strategy.entry_symbol_allowlist !== null,
    check: (strategy, trade) => {
      const allowed = allowedSymbols(strategy) ?? [];
      return allowed.includes(trade.symbol) ? null : `${trade.symbol} is not in the strategy's allowlist (${allowed.join(', ')}).`;
    },
  },
  {
    id: 'side_allowed',
    description: 'The order’s side is one of entry_allowed_sides.',
    applies: (strategy) => strategy.entry_allowed_sides !== null,
    check: (strategy, trade) => {
      const sides = allowedSides(strategy) ?? [];
      return sides.includes(trade.side) ? null : `The strategy allows only ${sides.join(' and ')} orders; this is a ${trade.side}.`;
    },
  },
  {
    id: 'max_position_size',
    description: 'qty × price (× 100 per contract for an options order) is at most entry_max_position_size.',
    applies: (strategy) => strategy.entry_max_position_size !== null,
    check: (strategy, trade, context) => {
      const max = strategy.entry_max_position_size ?? Infinity;
      if (context.referencePrice === null) {
        return `The price is unknown (${context.priceUnknownReason ?? 'no price given'}), so the position size cannot be checked against the maximum of ${money(max)}.`;
      }
      const options = trade.legs.length > 0;
      const size = positionSize(trade.qty, context.referencePrice, options);
      if (size <= max) return null;
      const formula = options ? `${trade.qty} × ${money(context.referencePrice)} × ${CONTRACT_MULTIPLIER}` : `${trade.qty} × ${money(context.referencePrice)}`;
      return `Position size ${money(size)} (${formula}) exceeds the maximum of ${money(max)}.`;
    },
  },
  {
    id: 'leg_structure',
    description:
      'Equity strategies trade shares (no legs). Every leg is an option on the order’s symbol and has not expired. Vertical spread: 2 legs, same expiry and type, ' +
      'different strikes, one bought and one sold. Iron condor: 4 legs, long put < short put < short call < long call, same expiry.',
    applies: () => true,
    check: (strategy, trade, context) => {
      if (EQUITY_STRATEGY_TYPES.has(strategy.strategy_type)) {
        return trade.legs.length === 0 ? null : `An ${strategy.strategy_type} strategy trades shares; this order has option legs.`;
      }
      const foreign = trade.legs.find((leg) => leg.root !== trade.symbol);
      if (foreign) return `Leg ${foreign.symbol} is an option on ${foreign.root}, not on the order's symbol ${trade.symbol}.`;
      // Whatever the strategy's limits: an expired contract cannot be opened.
      const expired = trade.legs.find((leg) => calendarDaysBetween(context.today, leg.expiry) < 0);
      if (expired) return `Leg ${expired.symbol} expired on ${expired.expiry}.`;
      if (strategy.strategy_type === 'vertical_spread') return verticalProblem(trade.legs);
      if (strategy.strategy_type === 'iron_condor') return ironCondorProblem(trade.legs);
      return null;
    },
  },
  {
    id: 'max_dte',
    description: 'Every leg expires within exit_max_dte calendar days of today (New York).',
    applies: (strategy) => strategy.exit_max_dte !== null,
    check: (strategy, trade, context) => {
      const max = strategy.exit_max_dte ?? Infinity;
      for (const leg of trade.legs) {
        const dte = calendarDaysBetween(context.today, leg.expiry);
        if (dte > max) return `Leg ${leg.symbol} expires on ${leg.expiry}, in ${dte} days; the strategy allows at most ${max}.`;
      }
      return null;
    },
  },
  {
    id: 'min_credit',
    description: 'Options strategies: the order is a sell whose price (net credit per share) is at least credit_min_amount.',
    applies: (strategy) => strategy.credit_min_amount !== null && tradesOptions(strategy),
    check: (strategy, trade) => {
      const min = strategy.credit_min_amount ?? 0;
      if (trade.side === 'buy') return `A buy pays a net debit; the strategy needs a net credit of at least ${money(min)} per share.`;
      if (trade.price === null) return `The net credit is unknown: give the order's net price per share (at least ${money(min)}).`;
      return trade.price >= min ? null : `Net credit ${money(trade.price)} per share is below the minimum of ${money(min)}.`;
    },
  },
];

/** Runs every rule that applies to `strategy` and returns all violations at once, in the list's order. */
export function checkCompliance(strategy: ComplianceStrategy, trade: ComplianceTrade, context: ComplianceContext): ComplianceOutcome {
  const violations: ComplianceViolation[] = [];
  for (const rule of COMPLIANCE_RULES) {
    if (!rule.applies(strategy)) continue;
    const message = rule.check(strategy, trade, context);
    if (message !== null) violations.push({ rule: rule.id, message });
  }
  return { compliant: violations.length === 0, violations };
}

/** The calendar date in New York at `instant` (`YYYY-MM-DD`): the day option expiries count in. */
export function newYorkDate(instant: Date): string {
  const parts = NEW_YORK_DATE.formatToParts(instant);
  const part = (type: 'year' | 'month' | 'day') => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const NEW_YORK_DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

function verticalProblem(legs: readonly OptionLeg[]): string | null {
  if (legs.length !== 2) return `A vertical spread has 2 legs; this order has ${legs.length}.`;
  const [a, b] = legs as [OptionLeg, OptionLeg];
  if (a.expiry !== b.expiry) return `The legs of a vertical spread share one expiry; these expire on ${a.expiry} and ${b.expiry}.`;
  if (a.type !== b.type) return 'The legs of a vertical spread are both calls or both puts; these are a call and a put.';
  if (a.strike === b.strike) return `The legs of a vertical spread have different strikes; both are at ${a.strike}.`;
  if (a.side === b.side) return `A vertical spread buys one leg and sells the other; this order ${a.side === 'buy' ? 'buys' : 'sells'} both.`;
  return null;
}

function ironCondorProblem(legs: readonly OptionLeg[]): string | null {
  const shape = 'long put < short put < short call < long call';
  if (legs.length !== 4) return `An iron condor has 4 legs (${shape}); this order has ${legs.length}.`;
  const expiries = new Set(legs.map((leg) => leg.expiry));
  if (expiries.size !== 1) return `The legs of an iron condor share one expiry; these expire on ${[...expiries].sort().join(', ')}.`;
  const find = (type: 'call' | 'put', side: 'buy' | 'sell') => legs.filter((leg) => leg.type === type && leg.side === side);
  const [longPuts, shortPuts, shortCalls, longCalls] = [find('put', 'buy'), find('put', 'sell'), find('call', 'sell'), find('call', 'buy')];
  if (![longPuts, shortPuts, shortCalls, longCalls].every((group) => group.length === 1)) {
    return `An iron condor is one long put, one short put, one short call and one long call (${shape}).`;
  }
  const strikes = [longPuts[0]!, shortPuts[0]!, shortCalls[0]!, longCalls[0]!].map((leg) => leg.strike);
  const ordered = strikes.every((strike, i) => i === 0 || strikes[i - 1]! < strike);
  return ordered ? null : `An iron condor's strikes run ${shape}; these are ${strikes.join(', ')}.`;
}

/**
 * `$1,234.50`: two decimals, thousands separated; the same on every machine (no locale data involved).
 * From 1e21 on `toFixed` writes an exponent, so such amounts (whole numbers at that size) go through BigInt;
 * a qty × price that overflowed is `$∞`.
 */
export function money(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const size = Math.abs(amount);
  if (!Number.isFinite(size)) return `${sign}$∞`;
  const [whole, cents] = (size < 1e21 ? size.toFixed(2) : `${BigInt(size)}.00`).split('.') as [string, string];
  return `${sign}$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}
