/**
 * An open modeled options position and its fills, in whole cents (docs/backtesting.md "Options backtests (modeled
 * prices)"): each leg fills at its model price plus or minus half its modeled spread, rounded to the cent against
 * the trader (modeled-spread.ts); a fill's commission is legs × contracts × commission_per_contract, rounded to the
 * cent; settlement at expiry is each leg's intrinsic value from the underlying's close, to the cent, without spread
 * or commission. Cash and P&L are integers of cents, so they add up exactly however many trades there are.
 */
import { roundedUnits } from '../round.js';
import { blackScholesPrice, type OptionRight } from './black-scholes.js';
import { boughtFill, soldFill } from './modeled-spread.js';
import type { LegShape } from './structure.js';

/** A leg as held: its shape, its OCC symbol and its entry fill (cents a share). */
export interface HeldLeg extends LegShape {
  readonly occ: string;
  readonly entryCents: number;
}

export interface OpenOptionsPosition {
  readonly legs: readonly HeldLeg[];
  readonly contracts: number;
  readonly expiry: string;
  readonly expiryDay: number;
  readonly entryBar: number;
  /** The net credit per share in cents (negative for a debit). */
  readonly creditCents: number;
  readonly entryCommissionCents: number;
  /** The maximum loss committed, cents (per contract × contracts, the entry's and the closing fill's commissions included). */
  readonly maxLossCents: number;
  /** The structure's values at expiry, cents a share: no fill goes beyond them (boundedFills). */
  readonly payoffBounds: PayoffBoundsCents;
}

/** How a leg is priced on a close: the underlying's close, the volatility and the years to expiry. */
export interface LegMarket {
  readonly spot: number;
  readonly volatility: number;
  readonly years: number;
  readonly rate: number;
}

/** A fill of every leg: each leg's price (cents a share) and the spread paid. */
export interface LegFills {
  readonly cents: number[];
  /** Σ sign × fill, cents a share: what holding the legs is worth as filled (the negative of a net credit). */
  readonly netCents: number;
  /** Σ |fill − model price| over the legs, dollars a share. */
  readonly spreadPerShare: number;
}

export function legModel(leg: LegShape, market: LegMarket): number {
  return blackScholesPrice({ right: leg.right, spot: market.spot, strike: leg.strike, years: market.years, volatility: market.volatility, rate: market.rate });
}

/** Each leg bought or sold as `direction` × its sign says (+1 buys): `direction` +1 opens the legs, −1 closes them. */
export function fillLegs(legs: readonly LegShape[], market: LegMarket, direction: 1 | -1): LegFills {
  const cents: number[] = [];
  let netCents = 0;
  let spreadPerShare = 0;
  for (const leg of legs) {
    const model = legModel(leg, market);
    const buying = leg.sign * direction > 0;
    const fill = buying ? boughtFill(model) : soldFill(model);
    const legCents = Math.round(fill * 100);
    cents.push(legCents);
    netCents += leg.sign * legCents;
    spreadPerShare += Math.abs(fill - model);
  }
  return { cents, netCents, spreadPerShare };
}

/** The structure's lowest and highest value at expiry, cents a share: no fill of the whole structure goes beyond them. */
export interface PayoffBoundsCents {
  readonly lowest: number;
  readonly highest: number;
}

/**
 * fillLegs, the net kept within the structure's values at expiry: half-spreads on deep in-the-money legs can add up
 * to more than a vertical's width, and no one pays more to close a spread (or to open a debit spread) than it can
 * ever be worth. The excess comes off the legs' half-spreads, whole cents in leg order, so the legs still add up to
 * the net.
 */
export function boundedFills(legs: readonly LegShape[], market: LegMarket, direction: 1 | -1, bounds: PayoffBoundsCents): LegFills {
  const fills = fillLegs(legs, market, direction);
  const below = bounds.lowest - fills.netCents;
  const above = fills.netCents - bounds.highest;
  let excess = Math.max(below, above);
  if (excess <= 0) return fills;
  // The way the net must move (+1 up from below the lowest, −1 down from above the highest); a leg moves by sign × that.
  const towards = below > 0 ? 1 : -1;
  const cents = fills.cents.slice();
  for (let pass = 0; pass < 2 && excess > 0; pass++) {
    legs.forEach((leg, i) => {
      if (excess <= 0) return;
      const raise = towards * leg.sign > 0;
      const midCents = Math.round(legModel(leg, market) * 100);
      // First pass: at most the spread this leg paid; second: whatever is left (a rounding cent), no price below 0.
      const room = pass === 0 ? Math.max(0, raise ? midCents - cents[i]! : cents[i]! - midCents) : raise ? excess : cents[i]!;
      const move = Math.min(room, excess);
      cents[i] = cents[i]! + (raise ? move : -move);
      excess -= move;
    });
  }
  let netCents = 0;
  let spreadPerShare = 0;
  legs.forEach((leg, i) => {
    netCents += leg.sign * cents[i]!;
    spreadPerShare += Math.abs(cents[i]! / 100 - legModel(leg, market));
  });
  return { cents, netCents, spreadPerShare };
}

/** Σ sign × model price a share (dollars): the position's value to its holder at model prices, no spread. */
export function modelValue(legs: readonly LegShape[], market: LegMarket): number {
  let value = 0;
  for (const leg of legs) value += leg.sign * legModel(leg, market);
  return value;
}

/** A leg's intrinsic value at `spot`, cents a share. */
export function intrinsicCents(right: OptionRight, strike: number, spot: number): number {
  return Math.round(Math.max(0, right === 'call' ? spot - strike : strike - spot) * 100);
}

/** The commission of one fill, cents: legs × contracts × commission_per_contract, to the nearest cent. */
export function commissionCents(legs: number, contracts: number, perContract: number): number {
  return Math.max(0, roundedUnits(legs * contracts * perContract, 100));
}
