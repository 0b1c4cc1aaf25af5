/**
 * What an options structure can be worth at expiry, pure (no I/O). A paper order fills at a modeled price
 * (option-quote.ts) and names only a limit; that limit must still be one the structure could be worth (DESIGN
 * "Paper trading"). Payoffs are per unit of the structure and per share (a contract is 100
 * shares), from the buyer's side of the order: the legs as sent, bought legs positive. Strikes are the OCC symbol's
 * thousandths of a dollar (integers), so a width is exact.
 */
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { money } from '../compliance/compliance-rules.js';
import { amountCents, centsToAmount, MoneyOutOfRange } from './money.js';

export interface StructureLeg {
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly ratio: number;
}

interface Leg {
  readonly root: string;
  readonly expiry: string;
  readonly type: 'call' | 'put';
  readonly strikeMilli: number;
  /** Contracts per unit: positive bought, negative sold. */
  readonly signed: number;
}

/** The order's maximum loss and gain in dollars (null: without limit) and where it breaks even at expiry. */
export interface RiskProfile {
  readonly max_loss: number | null;
  readonly max_gain: number | null;
  /** Prices of the underlying at expiry where the order neither gains nor loses; none when the legs expire on several dates. */
  readonly breakevens: number[];
}

export type PriceCheck = { readonly ok: true } | { readonly ok: false; readonly code: 'price_out_of_bounds' | 'no_price'; readonly message: string };

/**
 * Whether `netPrice` (per share; positive a debit, negative a credit) is a price the legs could be worth: a single
 * leg's premium above 0 and at most its strike (a put) or the underlying's `lastClose` (a call); any other structure
 * strictly between the least and the most its legs are worth at expiry (a vertical below its width, an iron condor's
 * credit below its wider wing). Where more calls are bought than sold or the other way round, the upper side is
 * bounded by the last close as a call's premium is; without one, `no_price`.
 */
export function priceCheck(legs: readonly StructureLeg[], netPrice: number, lastClose: number | null): PriceCheck {
  const parsed = parsedLegs(legs);
  const unboundedCalls = [...byExpiry(parsed).values()].some((group) => callSlope(group) !== 0);
  if (unboundedCalls && lastClose === null) {
    return { ok: false, code: 'no_price', message: `There is no stored close of ${parsed[0]!.root} to bound what its calls are worth: import its bars first.` };
  }
  const refused = (message: string): PriceCheck => ({ ok: false, code: 'price_out_of_bounds', message });
  if (parsed.length === 1) {
    const only = parsed[0]!;
    const premium = Math.abs(netPrice);
    if (premium <= 0) return refused(`A single option’s premium must be above $0.00: ${money(premium)} is not.`);
    const bound = (only.type === 'put' ? only.strikeMilli / 1000 : lastClose!) * Math.abs(only.signed);
    if (premium > bound) {
      const what = only.type === 'put' ? 'a single put’s premium is at most its strike' : 'a single call’s premium is at most the underlying’s last close';
      return refused(`${capitalised(what)}, ${money(bound)} a share: ${money(premium)} is not.`);
    }
    return { ok: true };
  }
  const { lowest, highest } = boundedRange(parsed, lastClose ?? 0);
  if (lowest === highest ? netPrice === lowest : netPrice > lowest && netPrice < highest) return { ok: true };
  return refused(outOfRange(parsed, netPrice, lowest, highest));
}

/** `qty` units of the structure at `netPrice`: the most it can lose and gain at expiry, in dollars, and its breakevens. */
export function riskProfile(legs: readonly StructureLeg[], qty: number, netPrice: number): RiskProfile {
  const parsed = parsedLegs(legs);
  const groups = [...byExpiry(parsed).values()];
  let lowest: number | null = 0;
  let highest: number | null = 0;
  for (const group of groups) {
    const values = pointsOf(group).map((point) => payoffMilli(group, point));
    const slope = callSlope(group);
    lowest = lowest === null || slope < 0 ? null : lowest + Math.min(...values);
    highest = highest === null || slope > 0 ? null : highest + Math.max(...values);
  }
  const priceCents = orderCents(qty, netPrice);
  return {
    max_loss: lowest === null ? null : centsToAmount(priceCents - orderCents(qty, lowest / 1000)),
    max_gain: highest === null ? null : centsToAmount(orderCents(qty, highest / 1000) - priceCents),
    breakevens: groups.length === 1 ? breakevens(groups[0]!, netPrice) : [],
  };
}

/**
 * qty × price × 100 in cents, exact while it is a safe integer; beyond 2^53 cents (a structure far larger than any
 * account could hold, which the order itself would refuse) the nearest double, as it is only shown.
 */
function orderCents(qty: number, price: number): number {
  try {
    return amountCents(qty, price, 100);
  } catch (error) {
    if (error instanceof MoneyOutOfRange) return Math.round(qty * price * 100 * 100);
    throw error;
  }
}

/** The least and the most the legs are worth at expiry (dollars a share), calls beyond the highest strike counted up to `lastClose` more. */
function boundedRange(legs: readonly Leg[], lastClose: number): { lowest: number; highest: number } {
  let lowest = 0;
  let highest = 0;
  for (const group of byExpiry(legs).values()) {
    const points = pointsOf(group);
    const values = points.map((point) => payoffMilli(group, point) / 1000);
    const top = values.at(-1)! + callSlope(group) * lastClose;
    lowest += Math.min(...values, top);
    highest += Math.max(...values, top);
  }
  return { lowest, highest };
}

function outOfRange(legs: readonly Leg[], price: number, lowest: number, highest: number): string {
  const name = structureName(legs);
  if (name) {
    const [what, bound] = name === 'vertical' ? ['A vertical spread’s', 'its width'] : ['An iron condor’s', 'its wider wing'];
    const width = Math.max(-lowest, highest);
    if (price < 0 && lowest < 0) return `${what} credit must be below ${bound}, ${money(width)} a share: ${money(-price)} is not.`;
    if (price > 0 && highest > 0) return `${what} debit must be below ${bound}, ${money(width)} a share: ${money(price)} is not.`;
    if (lowest >= 0) return `${what.replace('’s', '')} bought this way can only pay its holder at expiry: it takes a debit above $0.00 a share, not ${signedMoney(price)}.`;
    return `${what.replace('’s', '')} sold this way can only cost its holder at expiry: it takes a credit above $0.00 a share, not ${signedMoney(price)}.`;
  }
  const range = `At expiry these legs are worth ${signedMoney(lowest)} to ${signedMoney(highest)} a share`;
  if (price >= highest) {
    return highest > 0
      ? `${range}: a debit must be below ${money(highest)} a share, and ${money(price)} is not.`
      : `${range}: a credit must be above ${money(-highest)} a share, and ${signedMoney(price)} is not.`;
  }
  return lowest < 0
    ? `${range}: a credit must be below ${money(-lowest)} a share, and ${money(-price)} is not.`
    : `${range}: a debit must be above ${money(lowest)} a share, and ${signedMoney(price)} is not.`;
}

/** `vertical` (two legs of one type and expiry, one bought, one sold, equal ratios), `condor` (a put and a call vertical), or null. */
function structureName(legs: readonly Leg[]): 'vertical' | 'condor' | null {
  const isVertical = (pair: readonly Leg[]) =>
    pair.length === 2 && pair[0]!.type === pair[1]!.type && pair[0]!.expiry === pair[1]!.expiry && pair[0]!.signed === -pair[1]!.signed;
  if (isVertical(legs)) return 'vertical';
  const puts = legs.filter((leg) => leg.type === 'put');
  const calls = legs.filter((leg) => leg.type === 'call');
  if (legs.length === 4 && isVertical(puts) && isVertical(calls) && puts[0]!.expiry === calls[0]!.expiry && Math.abs(puts[0]!.signed) === Math.abs(calls[0]!.signed)) return 'condor';
  return null;
}

/** The underlying prices where the payoff at expiry equals the price paid (one expiry). */
function breakevens(legs: readonly Leg[], price: number): number[] {
  const target = price * 1000;
  const points = pointsOf(legs);
  const found: number[] = [];
  const add = (milli: number) => {
    const value = Math.round(milli) / 1000;
    if (value >= 0 && !found.includes(value)) found.push(value);
  };
  for (let i = 0; i < points.length; i += 1) {
    const a = points[i]!;
    const pa = payoffMilli(legs, a) - target;
    if (Math.abs(pa) < 1e-6) add(a);
    const b = points[i + 1];
    if (b !== undefined) {
      const pb = payoffMilli(legs, b) - target;
      if (pa * pb < 0) add(a + (-pa * (b - a)) / (pb - pa));
    } else {
      const slope = callSlope(legs);
      if (slope !== 0 && -pa / slope > 0) add(a - pa / slope);
    }
  }
  return found.sort((x, y) => x - y);
}

/** 0 and the strikes, ascending (the payoff is linear between them). */
function pointsOf(legs: readonly Leg[]): number[] {
  return [...new Set([0, ...legs.map((leg) => leg.strikeMilli)])].sort((a, b) => a - b);
}

function payoffMilli(legs: readonly Leg[], price: number): number {
  return legs.reduce((sum, leg) => sum + leg.signed * Math.max(0, leg.type === 'call' ? price - leg.strikeMilli : leg.strikeMilli - price), 0);
}

/** Calls bought less calls sold: the payoff's slope above the highest strike. */
function callSlope(legs: readonly Leg[]): number {
  return legs.reduce((sum, leg) => sum + (leg.type === 'call' ? leg.signed : 0), 0);
}

function byExpiry(legs: readonly Leg[]): Map<string, Leg[]> {
  const groups = new Map<string, Leg[]>();
  for (const leg of legs) groups.set(leg.expiry, [...(groups.get(leg.expiry) ?? []), leg]);
  return groups;
}

function parsedLegs(legs: readonly StructureLeg[]): Leg[] {
  return legs.map((leg) => {
    const option = parseOccSymbol(leg.symbol);
    if (!option) throw new RangeError(`not an OCC symbol: ${leg.symbol}`);
    return { root: option.root, expiry: option.expiry, type: option.type, strikeMilli: Number(option.symbol.slice(-8)), signed: (leg.side === 'buy' ? 1 : -1) * leg.ratio };
  });
}

/** Dollars with a minus sign for a credit. */
export function signedMoney(amount: number): string {
  return amount < 0 ? `−${money(-amount)}` : money(amount);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
