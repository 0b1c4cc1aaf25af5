import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMarketable, modeledQuote } from './option-quote.js';

/** 21 closes alternating 100 and 101: about 16.2 % realized volatility, the spot 100. */
const CLOSES = Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? 100 : 101));
const market = { closes: CLOSES, today: '2026-03-10' };
const leg = (symbol: string, side: 'buy' | 'sell', ratio = 1) => ({ symbol, side, ratio });

describe('modeledQuote', () => {
  it('is null with fewer than 21 closes', () => {
    expect(modeledQuote([leg('ABC260417C00100000', 'buy')], { ...market, closes: CLOSES.slice(1) })).toBeNull();
  });

  it('a bought leg pays half the spread above the model, a sold one receives half below it, never below 0', () => {
    // Far out of the money a month out: worth nothing, so the spread is its $0.05 floor.
    expect(modeledQuote([leg('ABC260417C00300000', 'buy')], market)).toMatchObject({ ask: 0.03, bid: 0, mid: 0 });
    expect(modeledQuote([leg('ABC260417C00300000', 'sell')], market)).toMatchObject({ ask: 0, bid: -0.03, mid: 0 });
    const call = modeledQuote([leg('ABC260417C00100000', 'buy')], market)!;
    expect(call.ask).toBeGreaterThan(call.mid);
    expect(call.bid).toBeLessThan(call.mid);
    // 5 % of the price: the spread's width is about a twentieth of the mid.
    expect(call.ask - call.bid).toBeCloseTo(call.mid * 0.05, 1);
  });

  it('the reverse order fills at minus the bid, so any structure and its mirror lose the spread together', () => {
    const symbols = ['ABC260417P00090000', 'ABC260417P00095000', 'ABC260417C00100000', 'ABC260417C00105000', 'ABC260515C00110000'];
    const legs = fc.uniqueArray(fc.record({ index: fc.nat({ max: symbols.length - 1 }), side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), ratio: fc.integer({ min: 1, max: 3 }) }), {
      minLength: 1,
      maxLength: 4,
      selector: (l) => l.index,
    });
    fc.assert(
      fc.property(legs, (picked) => {
        const sent = picked.map((l) => leg(symbols[l.index]!, l.side, l.ratio));
        const quote = modeledQuote(sent, market)!;
        const mirror = modeledQuote(sent.map((l) => ({ ...l, side: l.side === 'buy' ? ('sell' as const) : ('buy' as const) })), market)!;
        expect(mirror.ask).toBeCloseTo(-quote.bid, 10);
        expect(quote.ask).toBeGreaterThanOrEqual(quote.mid);
        expect(quote.ask + mirror.ask).toBeGreaterThan(0);
      }),
    );
  });

  it('a limit is marketable when the ask is no higher: a debit at most, a credit at least', () => {
    const quote = { ask: -2.48, bid: -5.65, mid: -4, volatility: 0.16 };
    expect(isMarketable(quote, -2.48)).toBe(true);
    expect(isMarketable(quote, -1)).toBe(true);
    expect(isMarketable(quote, -2.49)).toBe(false);
    expect(isMarketable({ ...quote, ask: 3.1 }, 3.09)).toBe(false);
  });
});
