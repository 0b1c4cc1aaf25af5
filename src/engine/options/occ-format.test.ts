import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import { formatOccSymbol, occRoot } from './occ-format.js';

describe('formatOccSymbol', () => {
  it('writes the compact OCC form: root, YYMMDD, C or P, strike × 1000 in 8 digits', () => {
    expect(formatOccSymbol('SPX', '2020-03-20', 'put', 2900)).toBe('SPX200320P02900000');
    expect(formatOccSymbol('SPY', '2026-12-18', 'call', 450)).toBe('SPY261218C00450000');
    expect(formatOccSymbol('abc', '2026-04-17', 'call', 12.5)).toBe('ABC260417C00012500');
    // Provider history reaches back to 1990: OCC writes two digits of the year.
    expect(formatOccSymbol('SPX', '1999-03-19', 'put', 1250)).toBe('SPX990319P01250000');
  });

  it('makes a root of what an OCC root can hold', () => {
    expect(occRoot('^GSPC')).toBe('GSPC');
    expect(occRoot('BRK.B')).toBe('BRKB');
    expect(occRoot('VERYLONGNAME')).toBe('VERYLO');
  });

  it('refuses what has no OCC symbol: a strike beyond 99,999.999 is the request’s (an EngineError, a 422)', () => {
    expect(() => formatOccSymbol('BRK.A', '2020-03-20', 'put', 100_000)).toThrow(EngineError);
    expect(() => formatOccSymbol('SPX', '2020-03-20', 'put', 0)).toThrow(EngineError);
    expect(() => formatOccSymbol('SPX', '1899-03-20', 'put', 10)).toThrow(RangeError);
    expect(() => formatOccSymbol('...', '2020-03-20', 'put', 10)).toThrow(RangeError);
  });
});
