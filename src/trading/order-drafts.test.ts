import { describe, expect, it } from 'vitest';
import { BadRequest } from '../platform/errors.js';
import { equityDraft, optionsDraft } from './order-drafts.js';

const C500 = 'SPY260417C00500000';
const C510 = 'SPY260417C00510000';

describe('order drafts: validation (400) and the idempotency hash', () => {
  it('the net price has the sign its legs allow: all bought is a debit, all sold a credit; mixed legs either', () => {
    const refused = [
      { legs: [{ symbol: C500, side: 'buy' as const, ratio: 1 }], net_price: -1_000_000 },
      { legs: [{ symbol: C500, side: 'sell' as const, ratio: 1 }], net_price: 0.01 },
    ];
    for (const body of refused) {
      expect(() => optionsDraft({ underlying: 'SPY', qty: 1, ...body })).toThrow(BadRequest);
    }
    expect(optionsDraft({ underlying: 'SPY', qty: 1, legs: [{ symbol: C500, side: 'sell', ratio: 1 }], net_price: 0 }).side).toBe('buy');
    expect(optionsDraft({ underlying: 'SPY', qty: 1, legs: [{ symbol: C500, side: 'sell', ratio: 1 }], net_price: -1 }).side).toBe('sell');
    const mixed = [{ symbol: C500, side: 'sell' as const, ratio: 1 }, { symbol: C510, side: 'buy' as const, ratio: 1 }];
    expect(optionsDraft({ underlying: 'SPY', qty: 1, legs: mixed, net_price: 0.5 }).side).toBe('buy');
    expect(optionsDraft({ underlying: 'SPY', qty: 1, legs: mixed, net_price: -2 }).side).toBe('sell');
  });

  it('the same contract on two legs is a 400 naming both legs, in either OCC spelling', () => {
    const twice = (second: string, side: 'buy' | 'sell') => () =>
      optionsDraft({ underlying: 'SPY', qty: 1, legs: [{ symbol: C500, side: 'buy', ratio: 1 }, { symbol: C510, side: 'sell', ratio: 1 }, { symbol: second, side, ratio: 1 }], net_price: -1 });
    expect(twice(C500, 'sell')).toThrow('SPY260417C00500000 is on legs 1 and 3');
    expect(twice('SPY   260417C00500000', 'buy')).toThrow(BadRequest);
    expect(twice('SPY260417P00500000', 'buy')).not.toThrow();
  });

  it('an order worth more than $10 billion (qty × |price| × multiplier) is a 400 with a clear message', () => {
    expect(() => optionsDraft({ underlying: 'SPY', qty: 1000, legs: [{ symbol: C500, side: 'buy', ratio: 1 }], net_price: 1e9 })).toThrow(/at most \$10,000,000,000\.00 per order/);
    expect(() => optionsDraft({ underlying: 'SPY', qty: 1000, legs: [{ symbol: C500, side: 'buy', ratio: 1 }], net_price: 1e9 })).toThrow(BadRequest);
    expect(optionsDraft({ underlying: 'SPY', qty: 1000, legs: [{ symbol: C500, side: 'buy', ratio: 1 }], net_price: 100_000 }).qty).toBe(1000);
    expect(() => equityDraft({ symbol: 'SPY', side: 'buy', qty: 10_000_001, order_type: 'limit', limit_price: 1000 })).toThrow(BadRequest);
    expect(equityDraft({ symbol: 'SPY', side: 'buy', qty: 10_000_000, order_type: 'limit', limit_price: 1000 }).limitPrice).toBe(1000);
  });

  it('hashes the normalised order: order_type market by default, OCC symbols compact', () => {
    const base = { symbol: 'SPY', side: 'buy' as const, qty: 1, client_order_id: 'k' };
    expect(equityDraft(base).requestHash).toBe(equityDraft({ ...base, order_type: 'market' }).requestHash);
    expect(equityDraft(base).requestHash).not.toBe(equityDraft({ ...base, qty: 2 }).requestHash);
    const options = (symbol: string) => optionsDraft({ underlying: 'SPY', qty: 1, legs: [{ symbol, side: 'buy', ratio: 1 }], net_price: 1 });
    expect(options('SPY   261218C00450000').requestHash).toBe(options('SPY261218C00450000').requestHash);
    expect(options('SPY   261218C00450000').legs[0]!.symbol).toBe('SPY261218C00450000');
  });
});
