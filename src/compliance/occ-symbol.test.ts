import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatOccSymbol } from '../engine/options/occ-format.js';
import { parseOccSymbol } from './occ-symbol.js';

describe('parseOccSymbol', () => {
  it.each([
    ['SPY261218C00450000', { root: 'SPY', expiry: '2026-12-18', type: 'call', strike: 450 }],
    ['SPY   261218P00450000', { root: 'SPY', expiry: '2026-12-18', type: 'put', strike: 450 }],
    ['AAPL  270115C00002500', { root: 'AAPL', expiry: '2027-01-15', type: 'call', strike: 2.5 }],
    ['SPXW260320P05600000', { root: 'SPXW', expiry: '2026-03-20', type: 'put', strike: 5600 }],
    ['F260417C00012500', { root: 'F', expiry: '2026-04-17', type: 'call', strike: 12.5 }],
    ['GOOGL1280229C00150125', { root: 'GOOGL1', expiry: '2028-02-29', type: 'call', strike: 150.125 }],
  ])('reads %s', (symbol, parts) => {
    expect(parseOccSymbol(symbol)).toEqual({ symbol: symbol.replace(/ /g, ''), ...parts });
  });

  it('gives the compact form for the padded one, so both spellings name one contract', () => {
    expect(parseOccSymbol('SPY   261218C00450000')?.symbol).toBe('SPY261218C00450000');
    expect(parseOccSymbol('AAPL  270115C00002500')?.symbol).toBe('AAPL270115C00002500');
    expect(parseOccSymbol('SPY261218C00450000')?.symbol).toBe('SPY261218C00450000');
  });

  it.each([
    ['', 'empty'],
    ['SPY', 'a ticker'],
    ['261218C00450000', 'no root'],
    ['spy261218C00450000', 'a lower-case root'],
    ['SPY261218X00450000', 'neither C nor P'],
    ['SPY261218C0045000', 'a strike of 7 digits'],
    ['SPY261218C004500000', 'a strike of 9 digits'],
    ['SPY261318C00450000', 'month 13'],
    ['SPY270229C00450000', '29 February of a common year'],
    ['SPY261218C00000000', 'a zero strike'],
    ['TOOLONG261218C00450000', 'a root of 7 characters'],
    ['SPY 261218C00450000', 'padding that is not the 21-character form'],
    ['S PY  261218C00450000', 'a space inside the root'],
    ['SPY-A261218C00450000', 'punctuation in the root'],
  ])('refuses %j (%s)', (symbol) => {
    expect(parseOccSymbol(symbol)).toBeNull();
  });
});

describe('parseOccSymbol reads what the engine’s formatOccSymbol writes', () => {
  it('round-trips root, expiry, right and strike', () => {
    const rights = fc.constantFrom<'call' | 'put'>('call', 'put');
    const dates = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    const strikes = fc.integer({ min: 1, max: 99_999_999 }).map((thousandths) => thousandths / 1000);
    fc.assert(
      fc.property(fc.constantFrom('SPX', 'SPY', 'A', 'QQQ2'), dates, rights, strikes, (root, expiry, right, strike) => {
        expect(parseOccSymbol(formatOccSymbol(root, expiry, right, strike))).toMatchObject({ root, expiry, type: right, strike });
      }),
    );
  });
});
