/**
 * Paper options at expiry, pure (no I/O): DESIGN "Options strategies", last point — a contract still held after its
 * expiry settles at its intrinsic value from the underlying's close on the expiry date, with no spread and no
 * commission (settlement is not a fill). Money in whole cents, computed once on the exact decimal difference of the
 * close and the strike (money.ts `differenceCents`).
 */
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { differenceCents } from './money.js';
import type { StructureLeg } from './structure-payoff.js';

/**
 * Whether an option of `expiry` has expired on `today` (New York dates): it trades through its expiry date, as an
 * order on it is taken through that day, and from the next day on awaits settlement.
 */
export function hasExpired(expiry: string, today: string): boolean {
  return expiry < today;
}

/** A contract position: the compact OCC symbol and the signed contracts held (negative: sold). */
export interface HeldContract {
  readonly symbol: string;
  readonly qty: number;
}

/** What settling `contracts` at `close` books and what the settlement order says. */
export interface Settlement {
  /** Per contract: every contract closed (`delta` the held quantity reversed) for its intrinsic value. */
  readonly bookings: readonly { symbol: string; assetClass: 'option'; delta: number; paidCents: number }[];
  /** The cash the holder receives in all (negative: pays, a sold contract in the money). */
  readonly receivedCents: number;
  /** The settlement order's legs: every contract held, side reversed, the ratios the quantities over their gcd. */
  readonly legs: readonly StructureLeg[];
  /** The settlement order's units (the gcd of the quantities held). */
  readonly qty: number;
  /** Per share and unit, as an order's net price: positive paid, negative received; 8 decimals (a price, not money). */
  readonly netPrice: number;
}

/**
 * The cents one contract position receives at `close`: |qty| × intrinsic × multiplier, intrinsic max(0, close −
 * strike) for a call and max(0, strike − close) for a put; negative for a sold position (it pays).
 */
export function settlementCents(contract: HeldContract, close: number, multiplier: number): number {
  const option = parseOccSymbol(contract.symbol);
  if (!option) throw new RangeError(`not an OCC symbol: ${contract.symbol}`);
  const units = Math.abs(contract.qty);
  const intrinsic = option.type === 'call' ? differenceCents(units, close, option.strike, multiplier) : differenceCents(units, option.strike, close, multiplier);
  if (intrinsic <= 0) return 0;
  return contract.qty > 0 ? intrinsic : -intrinsic;
}

/** Settles every contract of `contracts` (one underlying, one expiry) at `close`. */
export function settle(contracts: readonly HeldContract[], close: number, multiplier: number): Settlement {
  const bookings = contracts.map((contract) => ({
    symbol: contract.symbol,
    assetClass: 'option' as const,
    delta: -contract.qty,
    // + 0: never −0 for a worthless contract.
    paidCents: -settlementCents(contract, close, multiplier) + 0,
  }));
  const receivedCents = -bookings.reduce((sum, booking) => sum + booking.paidCents, 0) + 0;
  const qty = contracts.reduce((divisor, contract) => gcd(divisor, Math.abs(contract.qty)), 0);
  const legs = contracts.map((contract) => ({ symbol: contract.symbol, side: contract.qty > 0 ? ('sell' as const) : ('buy' as const), ratio: Math.abs(contract.qty) / qty }));
  const netPrice = Math.round((-receivedCents / 100 / (qty * multiplier)) * 1e8) / 1e8 + 0;
  return { bookings, receivedCents, legs, qty, netPrice };
}

/**
 * A structure after its legs that expire on `expiry` settled at `close`: the legs left (none when every leg
 * expired) and its net price less what the settled legs paid back a share, so that the legs left carry what they
 * cost in the end (a calendar's long leg after its short one settled).
 */
export function settledStructure(legs: readonly StructureLeg[], netPrice: number, expiry: string, close: number): { legs: StructureLeg[]; netPrice: number } {
  const expiring = (leg: StructureLeg) => parseOccSymbol(leg.symbol)?.expiry === expiry;
  // In hundred-millionths of a dollar a share (differenceCents with a multiplier of 10^6): exact integers to sum.
  const PRICE_UNITS = 1_000_000;
  const receivedUnits = legs
    .filter(expiring)
    .reduce((sum, leg) => sum + settlementCents({ symbol: leg.symbol, qty: (leg.side === 'buy' ? 1 : -1) * leg.ratio }, close, PRICE_UNITS), 0);
  const priceUnits = differenceCents(1, netPrice, 0, PRICE_UNITS);
  return { legs: legs.filter((leg) => !expiring(leg)), netPrice: (priceUnits - receivedUnits) / 1e8 + 0 };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
