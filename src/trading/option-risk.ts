/**
 * The cash account's rules for option positions, pure (no I/O). DESIGN: no shorting, no margin. A sold contract
 * must be covered by a bought one of the same underlying, expiry and type (a vertical spread; two of them make an
 * iron condor), so every open structure has a bounded loss; that loss is held back from buying power as long as the
 * positions are open, and released when they close (nothing is stored: it is derived from the positions).
 */
import { parseOccSymbol } from '../compliance/occ-symbol.js';

/** An option position or an order's change to one: signed contracts (negative sold) of an OCC symbol. */
export interface ContractHolding {
  readonly symbol: string;
  readonly qty: number;
}

interface Parsed {
  readonly root: string;
  readonly expiry: string;
  readonly type: 'call' | 'put';
  /** Strike × 1000 (an integer: the OCC symbol's 8 digits). */
  readonly strikeMilli: bigint;
  readonly qty: bigint;
}

/** The holdings after adding `changes`, per compact OCC symbol (zero quantities dropped). */
export function holdingsAfter(held: readonly ContractHolding[], changes: readonly ContractHolding[]): ContractHolding[] {
  const bySymbol = new Map<string, number>();
  for (const { symbol, qty } of [...held, ...changes]) {
    const key = parseOccSymbol(symbol)?.symbol ?? symbol;
    bySymbol.set(key, (bySymbol.get(key) ?? 0) + qty);
  }
  return [...bySymbol].filter(([, qty]) => qty !== 0).map(([symbol, qty]) => ({ symbol, qty }));
}

/** A group (underlying, expiry, type) with more contracts sold than bought, among the groups `touched` names. */
export interface Uncovered {
  readonly root: string;
  readonly expiry: string;
  readonly type: 'call' | 'put';
  readonly sold: number;
  readonly bought: number;
}

/**
 * The first group of `holdings` (underlying, expiry, type) that one of the `touched` symbols belongs to and where
 * more contracts are sold than bought; null when every sold contract is covered.
 */
export function uncoveredShort(holdings: readonly ContractHolding[], touched: readonly string[]): Uncovered | null {
  const groups = new Map<string, { root: string; expiry: string; type: 'call' | 'put'; sold: number; bought: number }>();
  for (const holding of parsedAll(holdings)) {
    const key = groupKey(holding);
    const group = groups.get(key) ?? { root: holding.root, expiry: holding.expiry, type: holding.type, sold: 0, bought: 0 };
    if (holding.qty < 0n) group.sold += Number(-holding.qty);
    else group.bought += Number(holding.qty);
    groups.set(key, group);
  }
  for (const symbol of touched) {
    const option = parseOccSymbol(symbol);
    if (!option) continue;
    const group = groups.get(groupKey(option));
    if (group && group.sold > group.bought) return group;
  }
  return null;
}

/**
 * The cents that `holdings` can lose at expiry beyond what they are worth at best: for every underlying and expiry,
 * the worst payoff over all prices of the underlying (it is piecewise linear, so the worst is at 0 or at a strike,
 * given covered calls), when negative. A long-only group needs nothing; a credit spread needs its strike width ×
 * 100 × contracts. BigInt: the caller compares it with the cash and never converts beyond the safe range.
 */
export function collateralCents(holdings: readonly ContractHolding[], multiplier: number): bigint {
  const groups = new Map<string, Parsed[]>();
  for (const holding of parsedAll(holdings)) {
    const key = `${holding.root}|${holding.expiry}`;
    groups.set(key, [...(groups.get(key) ?? []), holding]);
  }
  let total = 0n;
  for (const legs of groups.values()) {
    const prices = [0n, ...legs.map((leg) => leg.strikeMilli)];
    let worst = 0n;
    for (const price of prices) {
      const payoff = legs.reduce((sum, leg) => sum + leg.qty * intrinsicMilli(leg, price), 0n);
      if (payoff < worst) worst = payoff;
    }
    // Milli-dollars per share × multiplier shares, in cents: × multiplier ÷ 10 (rounded up: never hold too little).
    const owed = -worst * BigInt(multiplier);
    total += (owed + 9n) / 10n;
  }
  return total;
}

function intrinsicMilli(leg: Parsed, price: bigint): bigint {
  const value = leg.type === 'call' ? price - leg.strikeMilli : leg.strikeMilli - price;
  return value > 0n ? value : 0n;
}

function parsedAll(holdings: readonly ContractHolding[]): Parsed[] {
  const parsed: Parsed[] = [];
  for (const holding of holdings) {
    const option = parseOccSymbol(holding.symbol);
    if (!option || holding.qty === 0) continue;
    parsed.push({ root: option.root, expiry: option.expiry, type: option.type, strikeMilli: BigInt(option.symbol.slice(-8)), qty: BigInt(holding.qty) });
  }
  return parsed;
}

function groupKey(option: { root: string; expiry: string; type: string }): string {
  return `${option.root}|${option.expiry}|${option.type}`;
}
