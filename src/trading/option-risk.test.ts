import { describe, expect, it } from 'vitest';
import { collateralCents, holdingsAfter, uncoveredShort } from './option-risk.js';

const P500 = 'SPY260417P00500000';
const P490 = 'SPY260417P00490000';
const C520 = 'SPY260417C00520000';
const C535 = 'SPY260417C00535000';

describe('option-risk: a cash account for options', () => {
  it('adds an order to the holdings by contract, either OCC spelling, dropping what closes', () => {
    expect(holdingsAfter([{ symbol: 'SPY261218C00450000', qty: 2 }], [{ symbol: 'SPY   261218C00450000', qty: -2 }, { symbol: P500, qty: 1 }])).toEqual([{ symbol: P500, qty: 1 }]);
  });

  it('a sold contract is covered by one bought of the same underlying, expiry and type, or it is refused', () => {
    expect(uncoveredShort([{ symbol: P500, qty: -1 }], [P500])).toEqual({ root: 'SPY', expiry: '2026-04-17', type: 'put', sold: 1, bought: 0 });
    expect(uncoveredShort([{ symbol: P500, qty: -1 }, { symbol: P490, qty: 1 }], [P500])).toBeNull();
    expect(uncoveredShort([{ symbol: C520, qty: -1 }, { symbol: P490, qty: 1 }], [C520])?.type).toBe('call');
    expect(uncoveredShort([{ symbol: C520, qty: -1 }, { symbol: 'SPY260515C00535000', qty: 1 }], [C520])).not.toBeNull();
    expect(uncoveredShort([{ symbol: C520, qty: -2 }, { symbol: C535, qty: 1 }], [C520])).toMatchObject({ sold: 2, bought: 1 });
    // Only the groups the order sells into are judged.
    expect(uncoveredShort([{ symbol: C520, qty: -1 }], [P500])).toBeNull();
  });

  it('holds the worst payoff at expiry: a vertical its width, an iron condor its wider side, long options nothing', () => {
    expect(collateralCents([], 100)).toBe(0n);
    expect(collateralCents([{ symbol: P490, qty: 3 }, { symbol: C535, qty: 1 }], 100)).toBe(0n);
    // Put credit spread 500/490 × 2: 10 × 100 × 2 = $2,000.
    expect(collateralCents([{ symbol: P500, qty: -2 }, { symbol: P490, qty: 2 }], 100)).toBe(200_000n);
    // A put debit spread (bought 500, sold 490) cannot lose at expiry beyond what it cost.
    expect(collateralCents([{ symbol: P500, qty: 2 }, { symbol: P490, qty: -2 }], 100)).toBe(0n);
    // Iron condor 490/500 puts, 520/535 calls: the wider side, 15 × 100.
    expect(collateralCents([{ symbol: P490, qty: 1 }, { symbol: P500, qty: -1 }, { symbol: C520, qty: -1 }, { symbol: C535, qty: 1 }], 100)).toBe(150_000n);
    // Two expiries are two structures.
    expect(collateralCents([{ symbol: P500, qty: -1 }, { symbol: P490, qty: 1 }, { symbol: 'SPY260515P00500000', qty: -1 }, { symbol: 'SPY260515P00490000', qty: 1 }], 100)).toBe(200_000n);
    // Strikes in thousandths of a dollar: 0.001 × 100 = 10 cents; with another multiplier, rounded up to the cent.
    expect(collateralCents([{ symbol: 'F260417C00012500', qty: -1 }, { symbol: 'F260417C00012501', qty: 1 }], 100)).toBe(10n);
    expect(collateralCents([{ symbol: 'F260417C00012500', qty: -1 }, { symbol: 'F260417C00012501', qty: 1 }], 1)).toBe(1n);
    // Far beyond 2^53 cents it stays exact (BigInt): the caller refuses it for want of cash.
    expect(collateralCents([{ symbol: 'SPX260417P99999000', qty: -10_000_000_000 }, { symbol: 'SPX260417P00001000', qty: 10_000_000_000 }], 100)).toBe(9_999_800_000_000_000_000n);
  });
});
