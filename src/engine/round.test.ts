import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fractionArray, moneyArray, roundFraction, roundFractionOrNull, roundMoney, roundMoneyOrNull } from './round.js';

/**
 * The reference: the exact binary value of x (mantissa × 2^exponent, in BigInt), times 10^d, rounded half away
 * from zero, then k / 10^d as the nearest double; −0 as 0.
 */
function exactRounding(x: number, d: number): number {
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? 0 : x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  const scaled = mantissa * 10n ** BigInt(d);
  let k: bigint;
  if (exponent >= 0) k = scaled << BigInt(exponent);
  else {
    const divisor = 1n << BigInt(-exponent);
    k = scaled / divisor;
    if (2n * (scaled - k * divisor) >= divisor) k += 1n;
  }
  if (k >= 2n ** 53n) return x;
  const rounded = Number(k) / 10 ** d;
  return rounded === 0 ? 0 : x < 0 ? -rounded : rounded;
}

/** Doubles near a decimal tie: (k + ½) / 10^d, and its neighbours a few units in the last place away. */
const nearTie = (d: number, maxK: number) =>
  fc.tuple(fc.integer({ min: -maxK, max: maxK }), fc.integer({ min: -3, max: 3 })).map(([k, ulps]) => {
    let x = (k + 0.5) / 10 ** d;
    for (let i = 0; i < Math.abs(ulps); i++) x = nextAfter(x, ulps > 0);
    return x;
  });

function nextAfter(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, (x >= 0) === up ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

describe('roundMoney', () => {
  it('rounds the exact binary value, half away from zero', () => {
    // 2.675 is 2.67499999999999982236431605997495353221893310546875: 2.67, where Math.round(x * 100) / 100 gives 2.68.
    expect(roundMoney(2.675)).toBe(2.67);
    expect(Math.round(2.675 * 100) / 100).toBe(2.68);
    // 1.005 is just below 1.005: 1.00.
    expect(roundMoney(1.005)).toBe(1);
    expect(roundMoney(-1.005)).toBe(-1);
    // x × 100 rounds to exactly k + ½ although x is below the tie: the product's error decides.
    expect(17337.105 * 100).toBe(1733710.5);
    expect(roundMoney(17337.105)).toBe(17337.1);
    expect(roundMoney(11466.005)).toBe(11466);
    expect(roundMoney(-17337.105)).toBe(-17337.1);
    // Exact ties (binary fractions) go away from zero on both sides.
    expect(roundMoney(0.125)).toBe(0.13);
    expect(roundMoney(-0.125)).toBe(-0.13);
    expect(Math.round(-0.125 * 100) / 100).toBe(-0.12);
    expect(roundMoney(0.375)).toBe(0.38);
    expect(roundMoney(1234.5)).toBe(1234.5);
    expect(roundMoney(100_000)).toBe(100_000);
    expect(roundMoney(100_000.00000000001)).toBe(100_000);
    expect(roundMoney(99_999.99999999999)).toBe(100_000);
  });

  it('gives 0, never −0', () => {
    for (const x of [-0, -0.001, -0.004999, -1e-300, -Number.MIN_VALUE]) expect(Object.is(roundMoney(x), 0)).toBe(true);
    expect(roundMoney(-0.005)).toBe(-0.01);
  });

  it('leaves what it cannot round as it is: NaN, infinities, values whose neighbours are more than a cent apart', () => {
    expect(roundMoney(Number.NaN)).toBeNaN();
    expect(roundMoney(Infinity)).toBe(Infinity);
    expect(roundMoney(-Infinity)).toBe(-Infinity);
    expect(roundMoney(1e20)).toBe(1e20);
    expect(roundMoney(2 ** 52 / 100 + 0.25)).toBe(exactRounding(2 ** 52 / 100 + 0.25, 2));
  });

  it('equals the exact rounding (and toFixed) near every kind of tie and on arbitrary doubles', () => {
    fc.assert(fc.property(nearTie(2, 1e11), (x) => roundMoney(x) === exactRounding(x, 2)), { numRuns: 20_000 });
    fc.assert(fc.property(nearTie(2, 1e6), (x) => roundMoney(x) === Math.abs(Number(x.toFixed(2))) * Math.sign(x) + 0), { numRuns: 20_000 });
    fc.assert(fc.property(fc.double({ noNaN: true, min: -1e15, max: 1e15 }), (x) => roundMoney(x) === exactRounding(x, 2)), { numRuns: 20_000 });
  });
});

describe('roundFraction', () => {
  it('rounds to 8 decimals, half away from zero on the exact value', () => {
    expect(roundFraction(0.30000000000000004)).toBe(0.3);
    expect(roundFraction(24 / 20 - 1)).toBe(0.2);
    expect(roundFraction(9.5 / 12 - 1)).toBe(-0.20833333);
    expect(roundFraction(2 / 3)).toBe(0.66666667);
    expect(roundFraction(-2 / 3)).toBe(-0.66666667);
    // 2^-9 = 0.001953125 exactly: a true tie at 8 decimals, away from zero.
    expect(roundFraction(2 ** -9)).toBe(0.00195313);
    expect(roundFraction(-(2 ** -9))).toBe(-0.00195313);
    // 1.25e-7 as a double is just below 1.25e-7: down.
    expect(roundFraction(1.25e-7)).toBe(1.2e-7);
    expect(Object.is(roundFraction(-4e-9), 0)).toBe(true);
    expect(roundFraction(-5e-9)).toBe(exactRounding(-5e-9, 8));
  });

  it('equals the exact rounding near ties and on arbitrary doubles', () => {
    fc.assert(fc.property(nearTie(8, 1e9), (x) => roundFraction(x) === exactRounding(x, 8)), { numRuns: 20_000 });
    fc.assert(fc.property(fc.double({ noNaN: true, min: -1e8, max: 1e8 }), (x) => roundFraction(x) === exactRounding(x, 8)), { numRuns: 20_000 });
  });
});

describe('nullable and array forms', () => {
  it('keep null, and round every element the same way', () => {
    expect(roundMoneyOrNull(null)).toBeNull();
    expect(roundFractionOrNull(null)).toBeNull();
    expect(roundMoneyOrNull(2.675)).toBe(2.67);
    expect(roundFractionOrNull(1 / 3)).toBe(0.33333333);
    expect(moneyArray(new Float64Array([100_000, 2.675, -0.001, 17337.105]))).toEqual([100_000, 2.67, 0, 17337.1]);
    const fractions = fractionArray(new Float64Array([0, -1e-12, -1 / 3]));
    expect(fractions).toEqual([0, 0, -0.33333333]);
    expect(Object.is(fractions[1], 0)).toBe(true);
    expect(Array.isArray(moneyArray(new Float64Array(0)))).toBe(true);
  });
});
