import { describe, expect, it } from 'vitest';
import { priceCheck, riskProfile, type StructureLeg } from './structure-payoff.js';

const leg = (symbol: string, side: 'buy' | 'sell', ratio = 1): StructureLeg => ({ symbol, side, ratio });
const P500 = 'SPY260417P00500000';
const P490 = 'SPY260417P00490000';
const C520 = 'SPY260417C00520000';
const C535 = 'SPY260417C00535000';
const putCreditSpread = [leg(P500, 'sell'), leg(P490, 'buy')];
const condor = [leg(P490, 'buy'), leg(P500, 'sell'), leg(C520, 'sell'), leg(C535, 'buy')];

describe('structure payoff: the bounds of a net price', () => {
  it('a vertical: its credit or debit strictly below its width', () => {
    expect(priceCheck(putCreditSpread, -9.99, null)).toEqual({ ok: true });
    expect(priceCheck(putCreditSpread, -10, null)).toEqual({ ok: false, code: 'price_out_of_bounds', message: 'A vertical spread’s credit must be below its width, $10.00 a share: $10.00 is not.' });
    expect(priceCheck(putCreditSpread, -150, null)).toMatchObject({ ok: false, message: expect.stringContaining('below its width, $10.00 a share') });
    // The same spread bought back: a debit below the width.
    const debitSpread = [leg(P500, 'buy'), leg(P490, 'sell')];
    expect(priceCheck(debitSpread, 0.4, null)).toEqual({ ok: true });
    expect(priceCheck(debitSpread, 10, null)).toMatchObject({ ok: false, message: 'A vertical spread’s debit must be below its width, $10.00 a share: $10.00 is not.' });
    // A spread that can only pay its holder is never sold for a credit, nor one that can only cost bought for a debit.
    expect(priceCheck(debitSpread, -1, null)).toMatchObject({ ok: false, message: expect.stringContaining('can only pay its holder at expiry') });
    expect(priceCheck(putCreditSpread, 0.5, null)).toMatchObject({ ok: false, message: expect.stringContaining('can only cost its holder at expiry') });
    // A 1-wide call spread sold for 500.
    expect(priceCheck([leg('SPX301218C04700000', 'sell'), leg('SPX301218C04701000', 'buy')], -500, null)).toMatchObject({ ok: false, message: expect.stringContaining('$1.00 a share') });
  });

  it('an iron condor: its credit below its wider wing', () => {
    expect(priceCheck(condor, -14.99, null)).toEqual({ ok: true });
    expect(priceCheck(condor, -15, null)).toEqual({ ok: false, code: 'price_out_of_bounds', message: 'An iron condor’s credit must be below its wider wing, $15.00 a share: $15.00 is not.' });
  });

  it('a single leg: a premium above zero, at most its strike (a put) or the last close (a call)', () => {
    expect(priceCheck([leg(P500, 'buy')], 0, null)).toEqual({ ok: false, code: 'price_out_of_bounds', message: 'A single option’s premium must be above $0.00: $0.00 is not.' });
    expect(priceCheck([leg(P500, 'buy')], 500, null)).toEqual({ ok: true });
    expect(priceCheck([leg(P500, 'sell')], -500.01, null)).toEqual({
      ok: false,
      code: 'price_out_of_bounds',
      message: 'A single put’s premium is at most its strike, $500.00 a share: $500.01 is not.',
    });
    expect(priceCheck([leg(P500, 'buy', 2)], 1000, null)).toEqual({ ok: true });
    expect(priceCheck([leg(C520, 'buy')], 472, 472)).toEqual({ ok: true });
    expect(priceCheck([leg(C520, 'sell')], -472.01, 472)).toMatchObject({ ok: false, message: 'A single call’s premium is at most the underlying’s last close, $472.00 a share: $472.01 is not.' });
    // Without a stored close nothing bounds a call.
    expect(priceCheck([leg(C520, 'buy')], 1, null)).toMatchObject({ ok: false, code: 'no_price', message: expect.stringContaining('SPY') });
  });

  it('any other structure: strictly between the least and the most its legs are worth at expiry', () => {
    const butterfly = [leg('SPY260417C00500000', 'buy'), leg('SPY260417C00510000', 'sell', 2), leg(C520, 'buy')];
    expect(priceCheck(butterfly, 9.99, null)).toEqual({ ok: true });
    expect(priceCheck(butterfly, 10, null)).toMatchObject({ ok: false, message: 'At expiry these legs are worth $0.00 to $10.00 a share: a debit must be below $10.00 a share, and $10.00 is not.' });
    expect(priceCheck(butterfly, 0, null)).toMatchObject({ ok: false, message: expect.stringContaining('a debit must be above $0.00 a share') });
    // A straddle: the call's side is bounded by the last close.
    const straddle = [leg(P500, 'buy'), leg('SPY260417C00500000', 'buy')];
    expect(priceCheck(straddle, 499.99, 472)).toEqual({ ok: true });
    expect(priceCheck(straddle, 500, 472)).toMatchObject({ ok: false, message: expect.stringContaining('below $500.00') });
    // Two expiries: each expiry's legs bounded on their own, summed.
    const twoSpreads = [...putCreditSpread, leg('SPY260515P00500000', 'sell'), leg('SPY260515P00480000', 'buy')];
    expect(priceCheck(twoSpreads, -29.99, null)).toEqual({ ok: true });
    expect(priceCheck(twoSpreads, -30, null)).toMatchObject({ ok: false, message: expect.stringContaining('a credit must be below $30.00 a share') });
  });
});

describe('structure payoff: maximum loss, maximum gain and breakevens of an order', () => {
  it('a put credit spread sold: gain the credit, lose the width less it', () => {
    // 2 × 100 × 1.35 = 270 gained at best; 2 × 100 × (10 − 1.35) = 1,730 lost at worst; even at 500 − 1.35.
    expect(riskProfile(putCreditSpread, 2, -1.35)).toEqual({ max_loss: 1730, max_gain: 270, breakevens: [498.65] });
  });

  it('a call debit spread, an iron condor, a long call and a long put by hand', () => {
    expect(riskProfile([leg(C520, 'buy'), leg(C535, 'sell')], 1, 4)).toEqual({ max_loss: 400, max_gain: 1100, breakevens: [524] });
    expect(riskProfile(condor, 1, -3)).toEqual({ max_loss: 1200, max_gain: 300, breakevens: [497, 523] });
    // Unlimited: null.
    expect(riskProfile([leg(C520, 'buy')], 3, 1.25)).toEqual({ max_loss: 375, max_gain: null, breakevens: [521.25] });
    expect(riskProfile([leg(P500, 'buy')], 1, 2.5)).toEqual({ max_loss: 250, max_gain: 49750, breakevens: [497.5] });
    // Selling a held call alone (a close): the order on its own could lose without limit.
    expect(riskProfile([leg(C520, 'sell')], 1, -2)).toEqual({ max_loss: null, max_gain: 200, breakevens: [522] });
  });

  it('a structure beyond 2^53 cents of risk is answered (the nearest amount), never an error', () => {
    expect(riskProfile([leg('SPX301218P99999999', 'buy', 100)], 10_000_000, 0.01)).toMatchObject({ max_loss: 10_000_000, max_gain: 9_999_999_890_000_000 });
  });

  it('two expiries: no single breakeven', () => {
    expect(riskProfile([...putCreditSpread, leg('SPY260515P00500000', 'sell'), leg('SPY260515P00480000', 'buy')], 1, -5)).toEqual({ max_loss: 2500, max_gain: 500, breakevens: [] });
  });
});
