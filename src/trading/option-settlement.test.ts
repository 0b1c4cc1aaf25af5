import { describe, expect, it } from 'vitest';
import { hasExpired, settle, settledStructure, settlementCents } from './option-settlement.js';

const CALL_440 = 'SPY260320C00440000';
const PUT_445 = 'SPY260320P00445000';
const PUT_435 = 'SPY260320P00435000';
const CALL_460 = 'SPY260320C00460000';
const CLOSE = 441.21505;

describe('settlement at expiry: intrinsic value from the close, no spread, no commission (hand-worked)', () => {
  it.each([
    // Long 2 calls at 440: 2 × 1.21505 × 100 = 243.01 dollars.
    [CALL_440, 2, 24_301],
    // Short 1 put at 445: pays 3.78495 × 100 = 378.495, half away from zero 378.50.
    [PUT_445, -1, -37_850],
    // Long put at 435, out of the money: worthless.
    [PUT_435, 1, 0],
    // Short call at 460, out of the money: keeps the premium, pays nothing.
    [CALL_460, -4, 0],
  ])('%s × %d at 441.21505 receives %d cents', (symbol, qty, cents) => {
    expect(settlementCents({ symbol, qty }, CLOSE, 100)).toBe(cents);
  });

  it('a put credit spread with its short leg in the money: the settlement closes both legs, pays the short leg’s intrinsic', () => {
    const settlement = settle(
      [
        { symbol: PUT_445, qty: -3 },
        { symbol: PUT_435, qty: 3 },
      ],
      CLOSE,
      100,
    );
    // 3 × 3.78495 × 100 = 1,135.485 → 1,135.49 paid (rounded once, on the position).
    expect(settlement.receivedCents).toBe(-113_549);
    expect(settlement.bookings).toEqual([
      { symbol: PUT_445, assetClass: 'option', delta: 3, paidCents: 113_549 },
      { symbol: PUT_435, assetClass: 'option', delta: -3, paidCents: 0 },
    ]);
    // The order that closes them: 3 units of (buy the 445 put, sell the 435 put) at a 3.78496667 debit a share.
    expect(settlement.qty).toBe(3);
    expect(settlement.legs).toEqual([
      { symbol: PUT_445, side: 'buy', ratio: 1 },
      { symbol: PUT_435, side: 'sell', ratio: 1 },
    ]);
    expect(settlement.netPrice).toBe(3.78496667);
  });

  it('a worthless option settles for nothing, never −0', () => {
    const settlement = settle([{ symbol: CALL_460, qty: 5 }], CLOSE, 100);
    expect(Object.is(settlement.receivedCents, 0)).toBe(true);
    expect(Object.is(settlement.bookings[0]!.paidCents, 0)).toBe(true);
    expect(Object.is(settlement.netPrice, 0)).toBe(true);
    expect(settlement).toMatchObject({ qty: 5, legs: [{ symbol: CALL_460, side: 'sell', ratio: 1 }] });
  });

  it('ratios are the quantities over their gcd', () => {
    expect(settle([{ symbol: CALL_440, qty: 4 }, { symbol: CALL_460, qty: -6 }], CLOSE, 100)).toMatchObject({
      qty: 2,
      legs: [
        { symbol: CALL_440, side: 'sell', ratio: 2 },
        { symbol: CALL_460, side: 'buy', ratio: 3 },
      ],
    });
  });

  it('a calendar keeps its later leg, its net price less what the settled leg paid back', () => {
    const near = CALL_440;
    const far = 'SPY260417C00440000';
    // Sold the near call, bought the far one, for a 3.10 debit; the near call settles 1.21505 against the holder.
    const rest = settledStructure(
      [
        { symbol: near, side: 'sell', ratio: 1 },
        { symbol: far, side: 'buy', ratio: 1 },
      ],
      3.1,
      '2026-03-20',
      CLOSE,
    );
    expect(rest).toEqual({ legs: [{ symbol: far, side: 'buy', ratio: 1 }], netPrice: 4.31505 });
  });

  it('an option trades through its expiry date and has expired the day after', () => {
    expect(hasExpired('2026-03-20', '2026-03-20')).toBe(false);
    expect(hasExpired('2026-03-20', '2026-03-21')).toBe(true);
  });
});
