import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blackScholesDelta, inverseNormalCdf, strikeForDelta, strikeForOtmPct } from './greeks.js';
import { normalCdf } from './black-scholes.js';

describe('blackScholesDelta', () => {
  it('Hull’s Example: S 49, K 50, r 5 %, σ 20 %, 20 weeks → call delta N(0.0542) = 0.522', () => {
    const option = { spot: 49, strike: 50, rate: 0.05, volatility: 0.2, years: 20 / 52 };
    expect(blackScholesDelta({ ...option, right: 'call' })).toBeCloseTo(0.5216, 4);
    expect(blackScholesDelta({ ...option, right: 'put' })).toBeCloseTo(0.5216 - 1, 4);
  });

  it('Hull’s S 42, K 40, r 10 %, σ 20 %, half a year: call delta N(0.7693) = 0.7791, put −0.2209', () => {
    const option = { spot: 42, strike: 40, rate: 0.1, volatility: 0.2, years: 0.5 };
    expect(blackScholesDelta({ ...option, right: 'call' })).toBeCloseTo(0.7791, 4);
    expect(blackScholesDelta({ ...option, right: 'put' })).toBeCloseTo(-0.2209, 4);
  });

  it('is a step at expiry: 1 or 0 for a call, 0 or −1 for a put', () => {
    expect(blackScholesDelta({ right: 'call', spot: 101, strike: 100, years: 0, volatility: 0.3 })).toBe(1);
    expect(blackScholesDelta({ right: 'put', spot: 101, strike: 100, years: 0, volatility: 0.3 })).toBe(0);
    expect(blackScholesDelta({ right: 'put', spot: 99, strike: 100, years: 0, volatility: 0.3 })).toBe(-1);
  });
});

describe('inverseNormalCdf', () => {
  it('is N⁻¹: to 1e-13 in the middle, 1e-9 in the far tail (normalCdf’s own tail precision)', () => {
    expect(inverseNormalCdf(0.5)).toBe(0);
    expect(inverseNormalCdf(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(inverseNormalCdf(1e-10)).toBeCloseTo(-6.361340902404056, 9);
    fc.assert(fc.property(fc.double({ min: -6, max: 6, noNaN: true }), (x) => Math.abs(inverseNormalCdf(normalCdf(x)) - x) < 1e-8));
  });
});

describe('strikeForDelta (by hand: S 100, σ 20 %, T 0.25, r 0, so σ√T = 0.1 and (r + σ²/2)T = 0.005)', () => {
  const market = { spot: 100, volatility: 0.2, years: 0.25 };

  it('the 0.50-delta call is at S·e^0.005 = 100.5013 (d1 = 0)', () => {
    expect(strikeForDelta({ ...market, right: 'call' }, 0.5)).toBeCloseTo(100.5013, 4);
  });

  it('the 0.16-delta put: N(d1) = 0.84, d1 = 0.99446, K = 100·e^(0.005 − 0.099446) = 90.9877', () => {
    expect(strikeForDelta({ ...market, right: 'put' }, 0.16)).toBeCloseTo(90.9877, 4);
  });

  it('the 0.25-delta call: d1 = N⁻¹(0.25) = −0.67449, K = 100·e^(0.005 + 0.067449) = 107.5138', () => {
    expect(strikeForDelta({ ...market, right: 'call' }, 0.25)).toBeCloseTo(107.5138, 4);
  });

  it('a put at the smallest deltas the API lets through (5e-324, 1e-300) is far below the spot, not an error', () => {
    for (const delta of [5e-324, 1e-300, 1e-17]) {
      const strike = strikeForDelta({ ...market, right: 'put' }, delta);
      expect(strike).toBeGreaterThan(0);
      expect(strike).toBeLessThan(50);
    }
    expect(inverseNormalCdf(5e-324)).toBeCloseTo(-38.47, 1);
  });

  it('the strike it finds has that delta (a put’s negative)', () => {
    const inputs = fc.record({
      spot: fc.double({ min: 5, max: 5000, noNaN: true }),
      years: fc.double({ min: 1 / 365, max: 2, noNaN: true }),
      volatility: fc.double({ min: 0.05, max: 1, noNaN: true }),
      rate: fc.double({ min: 0, max: 0.08, noNaN: true }),
      delta: fc.double({ min: 0.02, max: 0.98, noNaN: true }),
      right: fc.constantFrom<'call' | 'put'>('call', 'put'),
    });
    fc.assert(
      fc.property(inputs, ({ delta, ...target }) => {
        const strike = strikeForDelta(target, delta);
        const found = blackScholesDelta({ ...target, strike });
        return Math.abs(Math.abs(found) - delta) < 1e-9;
      }),
    );
  });

  it('with no time or no volatility, the forward; a delta outside (0, 1) is refused', () => {
    expect(strikeForDelta({ right: 'put', spot: 100, years: 0, volatility: 0.2 }, 0.3)).toBe(100);
    expect(() => strikeForDelta({ ...market, right: 'put' }, 1)).toThrow(RangeError);
  });
});

describe('strikeForOtmPct', () => {
  it('5 % out of the money: below the spot for a put, above it for a call', () => {
    expect(strikeForOtmPct('put', 200, 0.05)).toBe(190);
    expect(strikeForOtmPct('call', 200, 0.05)).toBe(210);
  });
});
