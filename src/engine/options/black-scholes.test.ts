import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blackScholesPrice, normalCdf, realizedVolatility, yearsToExpiry } from './black-scholes.js';

describe('normalCdf', () => {
  // The values: 0.5 × erfc(−x/√2) from a correctly rounded erfc (CPython's math.erfc).
  it('matches known values to 1e-15 (and to 1e-10 relative down to −5)', () => {
    expect(normalCdf(0)).toBe(0.5);
    const known: [number, number][] = [
      [1, 0.8413447460685429],
      [-1, 0.15865525393145707],
      [1.96, 0.9750021048517795],
      [-2.5, 0.006209665325776139],
      [-3, 0.0013498980316300957],
      [-5, 2.866515718791946e-7],
      [-8, 6.220960574271819e-16],
    ];
    for (const [x, p] of known) {
      expect(Math.abs(normalCdf(x) - p), `Φ(${x})`).toBeLessThan(1e-15);
      if (x >= -5) expect(Math.abs(normalCdf(x) - p) / p, `Φ(${x}) relative`).toBeLessThan(1e-10);
    }
  });

  it('is symmetric: Φ(x) + Φ(−x) = 1', () => {
    fc.assert(fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (x) => Math.abs(normalCdf(x) + normalCdf(-x) - 1) < 1e-15));
  });
});

describe('blackScholesPrice', () => {
  it('prices Hull’s example: S 42, K 40, r 10 %, σ 20 %, half a year → call 4.76, put 0.81', () => {
    const hull = { spot: 42, strike: 40, rate: 0.1, volatility: 0.2, years: 0.5 };
    expect(blackScholesPrice({ ...hull, right: 'call' })).toBeCloseTo(4.759, 3);
    expect(blackScholesPrice({ ...hull, right: 'put' })).toBeCloseTo(0.8086, 3);
  });

  it('keeps put–call parity: C − P = S − K·e^(−rT)', () => {
    const inputs = fc.record({
      spot: fc.double({ min: 1, max: 10_000, noNaN: true }),
      strikeRatio: fc.double({ min: 0.5, max: 2, noNaN: true }),
      years: fc.double({ min: 0, max: 3, noNaN: true }),
      volatility: fc.double({ min: 0, max: 1.5, noNaN: true }),
      rate: fc.double({ min: 0, max: 0.1, noNaN: true }),
    });
    fc.assert(
      fc.property(inputs, ({ spot, strikeRatio, years, volatility, rate }) => {
        const common = { spot, strike: spot * strikeRatio, years, volatility, rate };
        const parity = spot - common.strike * Math.exp(-rate * years);
        const gap = blackScholesPrice({ ...common, right: 'call' }) - blackScholesPrice({ ...common, right: 'put' }) - parity;
        return Math.abs(gap) <= 1e-9 * Math.max(1, spot);
      }),
    );
  });

  it('tends to intrinsic value as T → 0 and to discounted intrinsic value as σ → 0', () => {
    const at = { spot: 110, strike: 100, volatility: 0.3, rate: 0.05 };
    expect(blackScholesPrice({ ...at, right: 'call', years: 0 })).toBe(10);
    expect(blackScholesPrice({ ...at, right: 'put', years: 0 })).toBe(0);
    expect(blackScholesPrice({ ...at, right: 'call', years: 1e-10 })).toBeCloseTo(10, 8);
    const flat = { ...at, volatility: 0, years: 1 };
    expect(blackScholesPrice({ ...flat, right: 'call' })).toBeCloseTo(110 - 100 * Math.exp(-0.05), 12);
    expect(blackScholesPrice({ ...flat, volatility: 1e-9, right: 'call' })).toBeCloseTo(110 - 100 * Math.exp(-0.05), 8);
    expect(blackScholesPrice({ ...flat, spot: 90, right: 'put' })).toBeCloseTo(100 * Math.exp(-0.05) - 90, 12);
  });

  it('T is calendar days / 365', () => {
    expect(yearsToExpiry(73)).toBe(0.2);
    expect(yearsToExpiry(-3)).toBe(0);
  });
});

describe('realizedVolatility', () => {
  it('is the sample stdev of the last 20 log returns × √252; null with fewer than 21 closes', () => {
    expect(realizedVolatility(Array.from({ length: 20 }, () => 100))).toBeNull();
    expect(realizedVolatility(Array.from({ length: 30 }, () => 100))).toBe(0);
    // Alternating ±ln(1.01): mean 0, 20 returns of the same size, so σ = ln(1.01) × √(20/19) × √252.
    const closes = [5, ...Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? 100 : 101))];
    expect(realizedVolatility(closes)).toBeCloseTo(Math.log(1.01) * Math.sqrt(20 / 19) * Math.sqrt(252), 12);
  });

  it('reads the closes before `end` only (a replay’s bar t is end t + 1), from a typed column too', () => {
    const closes = Float64Array.from([...Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? 100 : 101)), 500, 7]);
    expect(realizedVolatility(closes, 21)).toBeCloseTo(Math.log(1.01) * Math.sqrt(20 / 19) * Math.sqrt(252), 12);
    expect(realizedVolatility(closes, 20)).toBeNull();
  });
});
