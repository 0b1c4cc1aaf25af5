import { describe, expect, it } from 'vitest';
import { boughtFill, centsDown, centsUp, halfSpread, soldFill } from './modeled-spread.js';

describe('the modeled spread: max(5 % of the model price, $0.05), a fill pays half', () => {
  it('5 % of a price above $1, the $0.05 floor below it', () => {
    expect(halfSpread(4)).toBeCloseTo(0.1, 15);
    expect(halfSpread(1)).toBeCloseTo(0.025, 15);
    expect(halfSpread(0.2)).toBeCloseTo(0.025, 15);
  });

  it('a bought leg fills above the model, rounded up to the cent; a sold one below, rounded down, never below 0', () => {
    expect(boughtFill(4)).toBe(4.1);
    expect(soldFill(4)).toBe(3.9);
    expect(boughtFill(2.345)).toBe(2.41); // 2.345 + 0.058625 = 2.403625 → 2.41
    expect(soldFill(2.345)).toBe(2.28); // 2.345 − 0.058625 = 2.286375 → 2.28
    expect(boughtFill(0)).toBe(0.03);
    expect(soldFill(0.01)).toBe(0);
  });

  it('ignores a double’s last-digit noise when rounding to the cent', () => {
    expect(centsUp(0.1 + 0.2)).toBe(0.3);
    expect(centsDown(1.15 * 100 / 100)).toBe(1.15);
    expect(Object.is(centsDown(-0.001 * 0), 0)).toBe(true);
  });
});
