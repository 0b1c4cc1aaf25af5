import { describe, expect, it } from 'vitest';
import { boundedFills, fillLegs, legModel } from './position.js';
import type { LegShape } from './structure.js';

/** SPX-like numbers, far in the money: at 80, the 105 and 110 puts are worth about 25 and 30 with a month to go. */
const market = { spot: 80, volatility: 0.2, years: 30 / 365, rate: 0 };
const cents = (legs: readonly LegShape[], fills: { cents: number[] }) => legs.reduce((sum, leg, i) => sum + leg.sign * fills.cents[i]!, 0);

describe('boundedFills: no fill of a spread beyond what it can be worth at expiry', () => {
  it('opening a $5 put debit spread deep in the money: the half-spreads would make the debit $6.39; it is $5.00', () => {
    const legs: LegShape[] = [{ right: 'put', strike: 110, sign: 1 }, { right: 'put', strike: 105, sign: -1 }];
    // Bought at about 30 + 0.75, sold at about 25 − 0.625, each rounded against the trader: a $6.39 debit for at most $5 at expiry.
    expect(fillLegs(legs, market, 1).netCents).toBe(639);
    const fills = boundedFills(legs, market, 1, { lowest: 0, highest: 500 });
    expect(fills.netCents).toBe(500);
    expect(cents(legs, fills)).toBe(500);
    // Each leg gave back part of its own half-spread: still no better than the model price for the trader.
    expect(fills.cents[0]! / 100).toBeGreaterThanOrEqual(legModel(legs[0]!, market) - 0.005);
    expect(fills.cents[1]! / 100).toBeLessThanOrEqual(legModel(legs[1]!, market) + 0.005);
  });

  it('closing a $5 put credit spread deep in the money costs $5.00, not the $6.13 of the two half-spreads', () => {
    const legs: LegShape[] = [{ right: 'put', strike: 100, sign: 1 }, { right: 'put', strike: 105, sign: -1 }];
    expect(fillLegs(legs, market, -1).netCents).toBe(-613);
    const fills = boundedFills(legs, market, -1, { lowest: -500, highest: 0 });
    expect(fills.netCents).toBe(-500);
    expect(cents(legs, fills)).toBe(-500);
  });

  it('within the bounds, the fills are fillLegs’ own', () => {
    const legs: LegShape[] = [{ right: 'put', strike: 70, sign: 1 }, { right: 'put', strike: 75, sign: -1 }];
    expect(boundedFills(legs, market, -1, { lowest: -500, highest: 0 })).toEqual(fillLegs(legs, market, -1));
  });
});
