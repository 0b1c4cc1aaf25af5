import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExecutionModel, positionReturn, templatePnl } from './model.js';
import { FRICTIONLESS, NO_COSTS, NO_EXITS, SIGNAL, STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, type Costs, type Sizing } from './settings.js';

const model = (costs: Partial<Costs> = {}, sizing: Sizing = { mode: 'all_in' }) =>
  new ExecutionModel({ costs: { ...NO_COSTS, ...costs }, sizing, exits: NO_EXITS });

describe('fill prices', () => {
  it('fills at exactly the reference without slippage, even a stored open outside [low, high]', () => {
    const free = new ExecutionModel(FRICTIONLESS);
    expect(free.buyPrice(10.5, Float64Array.of(10.2), 0)).toBe(10.5);
    expect(free.sellPrice(9.5, Float64Array.of(9.8), 0)).toBe(9.5);
  });

  it('slips a buy up and a sell down by bps / 10⁴, capped at the high and floored at the low', () => {
    const slipped = model({ slippage_bps: 100 });
    expect(slipped.buyPrice(10, Float64Array.of(11), 0)).toBe(10 * (1 + 100 / 10_000));
    expect(slipped.buyPrice(10, Float64Array.of(10.05), 0)).toBe(10.05);
    expect(slipped.sellPrice(10, Float64Array.of(9), 0)).toBe(10 * (1 - 100 / 10_000));
    expect(slipped.sellPrice(10, Float64Array.of(9.95), 0)).toBe(9.95);
  });
});

describe('commission', () => {
  it('is max(min, per_share × q + pct × q × p), 0 without costs', () => {
    expect(new ExecutionModel(FRICTIONLESS).commission(100, 10)).toBe(0);
    expect(model({ commission_per_share: 0.005, commission_min: 1 }).commission(100, 10)).toBe(1); // 0.5 < 1
    expect(model({ commission_per_share: 0.005, commission_min: 1 }).commission(1000, 10)).toBe(5);
    expect(model({ commission_pct: 0.001 }).commission(100, 10)).toBeCloseTo(1, 12);
    expect(model({ commission_min: 4.95 }).commission(1, 10)).toBe(4.95);
  });
});

describe('sizing: the largest whole q whose cost fits the budget', () => {
  it('steps down where the quotient rounds up (3,047 / 1.1 is 2,770 in doubles, yet 2,770 × 1.1 > 3,047)', () => {
    expect(Math.floor(3047 / 1.1)).toBe(2770);
    expect(2770 * 1.1).toBeGreaterThan(3047);
    expect(new ExecutionModel(FRICTIONLESS).sharesWithin(3047, 1.1)).toBe(2769);
  });

  it('leaves room for a commission minimum (100 × 10 + 5 > 1,000: 99 shares)', () => {
    expect(model({ commission_min: 5 }).sharesWithin(1000, 10)).toBe(99);
    expect(model({ commission_min: 5 }).sharesWithin(1005, 10)).toBe(100);
    expect(model({ commission_min: 5 }).sharesWithin(14.99, 10)).toBe(0);
    expect(model({ commission_min: 5 }).sharesWithin(15, 10)).toBe(1);
  });

  it('budgets each mode, never above the cash', () => {
    expect(model({}, { mode: 'percent_of_equity', value: 0.5 }).sharesToBuy(1000, 1000, 10)).toBe(50);
    expect(model({}, { mode: 'percent_of_equity', value: 1 }).sharesToBuy(300, 1000, 10)).toBe(30);
    expect(model({}, { mode: 'fixed_amount', value: 255 }).sharesToBuy(1000, 1000, 10)).toBe(25);
    expect(model({}, { mode: 'fixed_amount', value: 5000 }).sharesToBuy(1000, 1000, 10)).toBe(100);
    expect(model({}, { mode: 'fixed_shares', value: 7 }).sharesToBuy(1000, 1000, 10)).toBe(7);
    expect(model({}, { mode: 'fixed_shares', value: 700 }).sharesToBuy(1000, 1000, 10)).toBe(100);
    expect(model({ commission_min: 1 }, { mode: 'fixed_shares', value: 100 }).sharesToBuy(1000, 1000, 10)).toBe(99);
  });

  it('ends where q passes 2⁵³ (whole numbers no longer 1 apart): $10¹² at $0.0001 with a commission', () => {
    // A sub-cent price (an imported penny stock, a Yahoo coin pair) and the largest capital a request may name: the
    // quotient is about 10¹⁶ shares, where q + 1 === q (a version that stepped one share at a time never ended).
    for (const costs of [{ commission_min: 1 }, { commission_pct: 0.001 }]) {
      const m = model(costs);
      const q = m.sharesWithin(1e12, 1e-4);
      expect(m.cost(q, 1e-4)).toBeLessThanOrEqual(1e12);
      expect(q).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
      expect(Number.isInteger(q)).toBe(true);
    }
    // A price so small the quotient is infinite buys nothing, as without costs.
    expect(model({ commission_min: 1 }).sharesWithin(1e12, 1e-310)).toBe(0);
    expect(new ExecutionModel(FRICTIONLESS).sharesWithin(1e12, 1e-310)).toBe(0);
  });

  it('picks the largest q with q × p + commission(q) ≤ budget, for any costs (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e7, noNaN: true }),
        fc.double({ min: 0.01, max: 5000, noNaN: true }),
        fc.record({ commission_per_share: fc.constantFrom(0, 0.005, 0.01), commission_pct: fc.constantFrom(0, 0.001, 0.0025), commission_min: fc.constantFrom(0, 1, 4.95) }),
        (budget, price, costs) => {
          const m = model(costs);
          const q = m.sharesWithin(budget, price);
          if (q > 0) expect(m.cost(q, price)).toBeLessThanOrEqual(budget);
          expect(m.cost(q + 1, price)).toBeGreaterThan(budget);
        },
      ),
    );
  });
});

describe('exits on a close, in the order stop loss, trailing stop, take profit', () => {
  const exit = ExecutionModel.exitOnClose;
  it('long: each at its level, compared as prices', () => {
    expect(exit(true, 10, 10, 9, -0.1, null, null)).toBe(STOP_LOSS);
    expect(exit(true, 10, 10, 9.01, -0.1, null, null)).toBe(SIGNAL);
    expect(exit(true, 10, 13, 11.7, null, 0.1, null)).toBe(TRAILING_STOP);
    expect(exit(true, 10, 10, 12, null, null, 0.2)).toBe(TAKE_PROFIT);
  });

  it('long: the stop before the trailing stop, the trailing stop before the take profit', () => {
    expect(exit(true, 10, 10.2, 9.4, -0.05, 0.02, null)).toBe(STOP_LOSS);
    // A highest close of 20 (an earlier take profit unset), a close of 15: trailing 18 and take profit 12 both hold.
    expect(exit(true, 10, 20, 15, null, 0.1, 0.2)).toBe(TRAILING_STOP);
  });

  it('short: mirrored (stop above the entry, trailing above the lowest close, target below)', () => {
    expect(exit(false, 10, 10, 11, -0.1, null, null)).toBe(STOP_LOSS);
    expect(exit(false, 10, 8, 8.8, null, 0.1, null)).toBe(TRAILING_STOP);
    expect(exit(false, 10, 8, 8.7, null, 0.1, null)).toBe(SIGNAL);
    expect(exit(false, 10, 8, 8, null, null, 0.2)).toBe(TAKE_PROFIT);
  });
});

describe('a round trip', () => {
  it('without commissions keeps the operations it always had', () => {
    expect(templatePnl(3, 1.1, 1.3, 0)).toBe(3 * 1.3 - 3 * 1.1);
    expect(positionReturn(true, 3, 1.1, 1.3, templatePnl(3, 1.1, 1.3, 0), 0, 0)).toBe(1.3 / 1.1 - 1);
    expect(positionReturn(false, 3, 1.3, 1.1, 0.6, 0, 0)).toBe((1.3 - 1.1) / 1.3);
  });

  it('with commissions: pnl less both, return on the entry value plus its commission', () => {
    expect(templatePnl(100, 10, 12, 10)).toBe(190);
    expect(positionReturn(true, 100, 10, 12, 190, 5, 10)).toBe(190 / 1005);
  });
});
