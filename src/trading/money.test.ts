import { describe, expect, it } from 'vitest';
import { applyTrade, FLAT, immediateFillPrice, restingFill, splitOverLegs, type Holding } from './fills.js';
import { amountCents, averagePrice, differenceCents, MoneyOutOfRange, proportionalCents, safeCents, STARTING_CASH_CENTS } from './money.js';

describe('amountCents: qty × price exactly, rounded half away from zero to the cent', () => {
  it.each([
    [1, 100, 1, 10_000],
    [3, 0.1, 1, 30],
    [10, 1455.219971, 1, 1_455_220],
    [1, 0.005, 1, 1],
    [1, 0.015, 1, 2],
    [1, 1.005, 1, 101],
    [1, -0.005, 1, -1],
    [7, 1.25, 100, 87_500],
    [2, -1.35, 100, -27_000],
    [1, 1e-7, 1, 0],
    [1_000_000, 1234.5678, 1, 123_456_780_000],
  ])('%d × %d × %d = %d cents', (qty, price, multiplier, cents) => {
    expect(amountCents(qty, price, multiplier)).toBe(cents);
  });

  it('splits a cost in proportion, the remainder staying with the rest', () => {
    expect(proportionalCents(1000, 1, 3)).toBe(333);
    expect(proportionalCents(1001, 1, 2)).toBe(501);
    expect(proportionalCents(-1001, 1, 2)).toBe(-501);
    expect(proportionalCents(777, 5, 5)).toBe(777);
    expect(splitOverLegs(1001, [1, 1])).toEqual([501, 500]);
    expect(splitOverLegs(-1000, [1, 2, 1])).toEqual([-250, -500, -250]);
    expect(averagePrice(100_000, 3)).toBe(333.33333333);
  });
});

describe('differenceCents: qty × (a − b) × multiplier on the exact decimal difference, rounded once', () => {
  it.each([
    // 441.21505 − 440 = 1.21505 exactly: 12,150.5 cents a contract, half away from zero 12,151 (the doubles' 1.2150499999999766 would give 12,150).
    [1, 441.21505, 440, 100, 12_151],
    // 445 − 441.21505 = 3.78495: 37,849.5 → 37,850 (doubles: 37,849).
    [1, 445, 441.21505, 100, 37_850],
    [3, 445, 441.21505, 100, 113_549],
    [2, 441.21505, 445, 100, -75_699],
    [1, 1455.219971, 1400, 1, 5522],
    [7, 12.345, 12.345, 100, 0],
  ])('%d × (%d − %d) × %d = %d cents', (qty, a, b, multiplier, cents) => {
    expect(differenceCents(qty, a, b, multiplier)).toBe(cents);
  });
});

describe('fill rules (DESIGN)', () => {
  it.each([
    ['buy', 'market', null, 100, 100],
    ['sell', 'market', null, 100, 100],
    ['buy', 'limit', 100, 100, 100],
    ['buy', 'limit', 99.99, 100, null],
    ['sell', 'limit', 100, 100, 100],
    ['sell', 'limit', 100.01, 100, null],
  ] as const)('%s %s limit %s at close %d fills at %s', (side, type, limit, close, price) => {
    expect(immediateFillPrice(side, type, limit, close)).toBe(price);
  });

  const bars = [
    { date: '2026-01-06', open: 105, high: 106, low: 101, close: 102 },
    { date: '2026-01-07', open: 99, high: 103, low: 97, close: 100 },
    { date: '2026-01-08', open: 101, high: 104, low: 96, close: 103 },
  ];
  it('a resting buy fills on the first bar whose low reaches the limit, at min(open, limit)', () => {
    expect(restingFill('buy', 100, bars)).toEqual({ date: '2026-01-07', price: 99 });
    expect(restingFill('buy', 98, bars)).toEqual({ date: '2026-01-07', price: 98 });
    expect(restingFill('buy', 95, bars)).toBeNull();
  });
  it('a resting sell mirrors it: high reaches the limit, at max(open, limit)', () => {
    expect(restingFill('sell', 104, bars)).toEqual({ date: '2026-01-06', price: 105 });
    expect(restingFill('sell', 103.5, bars.slice(1))).toEqual({ date: '2026-01-08', price: 103.5 });
    expect(restingFill('sell', 110, bars)).toBeNull();
  });
});

describe('positions: golden table worked by hand', () => {
  // Each step: [delta, paid cents] → [qty, cost cents, realized cents of the step]
  const steps: [number, number, number, number, number][] = [
    [10, 100_000, 10, 100_000, 0], // buy 10 @ 100.00
    [5, 55_000, 15, 155_000, 0], // buy 5 @ 110.00: avg 103.33…
    [-6, -72_000, 9, 93_000, 10_000], // sell 6 @ 120.00: cost out 62,000, realized 10,000
    [-9, -81_000, 0, 0, -12_000], // sell 9 @ 90.00: cost out 93,000, realized −12,000
    [3, 1_000, 3, 1_000, 0], // buy 3 for $10.00
    [-1, -400, 2, 667, 67], // sell 1 for $4.00: cost out round(1000/3) = 333, realized 67
    [-2, -200, 0, 0, -467],
  ];
  it.each(steps.map((step, index) => [index + 1, ...step]))('step %d: %d units for %d cents', (index, ..._) => {
    let holding: Holding = FLAT;
    let realized = 0;
    for (const [delta, paid, qty, cost, stepRealized] of steps.slice(0, Number(index))) {
      const next = applyTrade(holding, delta, paid);
      holding = next.holding;
      realized = next.realizedCents;
      expect(holding).toEqual({ qty, costCents: cost });
      expect(realized).toBe(stepRealized);
    }
  });

  it('a sold option leg realizes the credit kept; crossing zero closes then opens', () => {
    const short = applyTrade(FLAT, -1, -10_000);
    expect(short.holding).toEqual({ qty: -1, costCents: -10_000 });
    expect(applyTrade(short.holding, 1, 4_000)).toEqual({ holding: { qty: 0, costCents: 0 }, realizedCents: 6_000 });
    expect(applyTrade(short.holding, 3, 12_000)).toEqual({ holding: { qty: 2, costCents: 8_000 }, realizedCents: 6_000 });
  });

  it('a thousand buys and sells leave cash exact to the cent', () => {
    let cash = STARTING_CASH_CENTS;
    let holding: Holding = FLAT;
    let realized = 0;
    for (let i = 0; i < 1000; i += 1) {
      const price = 100 + ((i * 37) % 101) / 100 + 0.001 * (i % 7);
      const delta = i % 2 === 0 ? 3 : -3;
      const paid = amountCents(3, price) * Math.sign(delta);
      const next = applyTrade(holding, delta, paid);
      holding = next.holding;
      realized += next.realizedCents;
      cash -= paid;
    }
    expect(holding.qty).toBe(0);
    expect(Number.isSafeInteger(cash)).toBe(true);
    // Every trade flat again: cash moved by exactly the realized P&L, to the cent.
    expect(cash - STARTING_CASH_CENTS).toBe(realized);
  });
});

describe('amounts beyond 2^53 cents', () => {
  it('are MoneyOutOfRange (the placement answers 422 amount_out_of_range), never a silently inexact number', () => {
    expect(() => amountCents(1000, 1e9, 100)).toThrow(MoneyOutOfRange);
    expect(() => proportionalCents(Number.MAX_SAFE_INTEGER, 3, 2)).toThrow(MoneyOutOfRange);
    expect(safeCents(Number.MAX_SAFE_INTEGER, 'cash')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => safeCents(Number.MAX_SAFE_INTEGER + 1, 'cash')).toThrow(MoneyOutOfRange);
    expect(() => safeCents(-Number.MAX_SAFE_INTEGER - 2, 'cash')).toThrow(MoneyOutOfRange);
  });
});
