/**
 * The legs of a modeled options structure at its entry, and its payoff at expiry. Pure.
 *
 * The spec's target (`short_delta`, the absolute delta, or `short_otm_pct`) places each short leg; strikes are on
 * the listed grid (listed-strikes.ts). A credit vertical's long leg is `width` further out of the money than its
 * short leg; a debit vertical's long leg is `width` nearer the money (a put_debit buys the higher put and sells the
 * target one, a call_debit buys the lower call and sells the target one). An iron condor is a put credit spread below
 * the spot and a call credit spread above it, each `wing_width` wide.
 */
import type { OptionRight } from './black-scholes.js';
import { strikeForDelta, strikeForOtmPct } from './greeks.js';
import { roundToListedStrike, strikeAway } from './listed-strikes.js';
import type { IronCondorSpec, OptionsSpec, OptionsStrategyType, VerticalSpec } from './replay-types.js';

/** A leg before it is priced: +1 long, −1 short. */
export interface LegShape {
  readonly right: OptionRight;
  readonly strike: number;
  readonly sign: 1 | -1;
}

/** What the short strikes are placed from: the spot, the volatility and the years to expiry at the entry. */
export interface EntryMarket {
  readonly spot: number;
  readonly volatility: number;
  readonly years: number;
  readonly rate: number;
}

/** The legs of `spec` at `market`, ordered by right (puts first) and strike. */
export function structureLegs(type: OptionsStrategyType, spec: OptionsSpec, market: EntryMarket): LegShape[] {
  if (type === 'iron_condor') {
    const { wing_width } = spec as IronCondorSpec;
    const put = shortStrike('put', spec, market);
    const call = shortStrike('call', spec, market);
    return [
      { right: 'put', strike: strikeAway(put, wing_width, 'down'), sign: 1 },
      { right: 'put', strike: put, sign: -1 },
      { right: 'call', strike: call, sign: -1 },
      { right: 'call', strike: strikeAway(call, wing_width, 'up'), sign: 1 },
    ];
  }
  const { structure, width } = spec as VerticalSpec;
  const right: OptionRight = structure === 'put_credit' || structure === 'put_debit' ? 'put' : 'call';
  const short = shortStrike(right, spec, market);
  const credit = structure === 'put_credit' || structure === 'call_credit';
  // Further out of the money for a credit spread (puts down, calls up), nearer the money for a debit one.
  const down = (right === 'put') === credit;
  const long = strikeAway(short, width, down ? 'down' : 'up');
  const legs: LegShape[] = [
    { right, strike: short, sign: -1 },
    { right, strike: long, sign: 1 },
  ];
  return legs.sort((a, b) => a.strike - b.strike);
}

/** Whether the structure opens for a credit (iron condors, put_credit, call_credit) or a debit. */
export function isCreditStructure(type: OptionsStrategyType, spec: OptionsSpec): boolean {
  if (type === 'iron_condor') return true;
  const { structure } = spec as VerticalSpec;
  return structure === 'put_credit' || structure === 'call_credit';
}

function shortStrike(right: OptionRight, spec: OptionsSpec, market: EntryMarket): number {
  const raw =
    spec.short_delta !== undefined
      ? strikeForDelta({ right, spot: market.spot, years: market.years, volatility: market.volatility, rate: market.rate }, spec.short_delta)
      : strikeForOtmPct(right, market.spot, spec.short_otm_pct ?? 0);
  return roundToListedStrike(raw);
}

/** Σ sign × intrinsic value of the legs with the underlying at `spot`, per share (what the position is worth at expiry). */
export function payoffAtExpiry(legs: readonly LegShape[], spot: number): number {
  let value = 0;
  for (const leg of legs) value += leg.sign * Math.max(0, leg.right === 'call' ? spot - leg.strike : leg.strike - spot);
  return value;
}

/**
 * The most the structure can lose at expiry per share, given the net credit per share it opened for (negative for a
 * debit): −(credit + the lowest payoff). The payoff is linear between strikes and flat beyond them (every structure
 * here is as long as it is short of each right), so its lowest value is at 0 or at a strike.
 */
export function maxLossPerShare(legs: readonly LegShape[], credit: number): number {
  let lowest = payoffAtExpiry(legs, 0);
  for (const leg of legs) lowest = Math.min(lowest, payoffAtExpiry(legs, leg.strike));
  return -(credit + lowest);
}
