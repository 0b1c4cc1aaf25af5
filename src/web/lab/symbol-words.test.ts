import { describe, expect, it } from 'vitest';
import { clippedPeriodNotice, symbolStatus } from './symbol-words';
import type { SymbolEntry } from './types';

const SPX: SymbolEntry = { symbol: 'SPX', name: 'S&P 500 Index', stored: true, source: 'demo', first_date: '2000-01-03', last_date: '2020-04-17' };
const AAPL_OFFERED: SymbolEntry = { symbol: 'AAPL', name: 'Apple Inc.', stored: false, source: 'yahoo' };
const MSFT: SymbolEntry = { symbol: 'MSFT', name: 'MSFT', stored: true, source: 'yahoo', first_date: '2021-01-04', last_date: '2026-11-25' };

describe('what a symbol field says of the ticker typed', () => {
  it('says on the Trade page that an order needs the bars of a ticker not stored (it fills at a stored close)', () => {
    expect(symbolStatus('AAPL', AAPL_OFFERED, 'yahoo', 'order')).toBe(
      "AAPL, not stored yet: a market order fills at Yahoo Finance's delayed price and stores its bars",
    );
    expect(symbolStatus('SPX', SPX, 'yahoo', 'order')).toBe('SPX, demo data, 2000-01-03 to 2020-04-17');
  });

  it('says the stored range and source of a stored symbol', () => {
    expect(symbolStatus('spx', SPX, 'yahoo')).toBe('SPX, demo data, 2000-01-03 to 2020-04-17');
    expect(symbolStatus('MSFT', MSFT, 'none')).toBe('MSFT, from Yahoo Finance, 2021-01-04 to 2026-11-25');
    expect(symbolStatus('ACME', { symbol: 'ACME', name: 'ACME', stored: true, source: 'import' }, 'none')).toBe('ACME, imported data, no bars stored');
  });

  it('says where a ticker not stored comes from, or that nothing fetches it offline', () => {
    expect(symbolStatus('AAPL', AAPL_OFFERED, 'yahoo')).toBe('AAPL, not stored yet: fetched from Yahoo Finance when you run');
    expect(symbolStatus('ZZZZ', undefined, 'alpaca')).toBe('ZZZZ, not stored yet: fetched from Alpaca when you run, if it knows the ticker');
    expect(symbolStatus('ZZZZ', undefined, 'none')).toBe('ZZZZ, not stored: this server fetches no market data, so it has no prices for it');
    expect(symbolStatus('ZZZZ', undefined, undefined)).toBeUndefined();
    expect(symbolStatus('ZZZZ', undefined, 'none', 'order')).toBe('ZZZZ, not stored: this server fetches no market data, so it has no prices for it');
    expect(symbolStatus('  ', undefined, 'yahoo')).toBeUndefined();
  });
});

describe('the notice of a period the data clips', () => {
  it('says where the data ends or starts when the period asked reaches past it', () => {
    expect(clippedPeriodNotice({ from: '2019-01-01', to: '2024-12-31' }, { from: '2019-01-02', to: '2020-04-17' }, [SPX])).toBe(
      'You asked for 2019-01-01 to 2024-12-31; the data ends 2020-04-17.',
    );
    expect(clippedPeriodNotice({ from: '1990-01-01', to: '2024-12-31' }, { from: '2000-01-03', to: '2020-04-17' }, [SPX])).toBe(
      'You asked for 1990-01-01 to 2024-12-31; the data starts 2000-01-03 and ends 2020-04-17.',
    );
  });

  it('says nothing when the data covers the period, even if its first or last day had no session', () => {
    expect(clippedPeriodNotice({ from: '2000-01-03', to: '2020-04-17' }, { from: '2000-01-03', to: '2020-04-17' }, [SPX])).toBeUndefined();
    // 2019-01-01 is a holiday and 2019-12-29 a Sunday: the bars used differ, the data does not clip.
    expect(clippedPeriodNotice({ from: '2019-01-01', to: '2019-12-29' }, { from: '2019-01-02', to: '2019-12-27' }, [SPX])).toBeUndefined();
  });

  it('names the symbol whose data clips when there are several', () => {
    expect(clippedPeriodNotice({ from: '2019-01-01', to: '2024-12-31' }, { from: '2019-01-02', to: '2024-12-31' }, [SPX, MSFT])).toBe(
      "You asked for 2019-01-01 to 2024-12-31; SPX's data ends 2020-04-17; MSFT's data starts 2021-01-04.",
    );
  });

  it('falls back on the bars used when no stored range is known', () => {
    expect(clippedPeriodNotice({ from: '2019-01-01', to: '2024-12-31' }, { from: '2019-01-02', to: '2020-04-17' }, [])).toBe(
      'You asked for 2019-01-01 to 2024-12-31; the bars used run from 2019-01-02 to 2020-04-17.',
    );
    expect(clippedPeriodNotice({ from: '2019-01-02', to: '2020-04-17' }, { from: '2019-01-02', to: '2020-04-17' }, [])).toBeUndefined();
  });
});
