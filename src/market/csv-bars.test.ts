import { describe, expect, it } from 'vitest';
import { CsvBarsError, parseBarsCsv } from './csv-bars.js';
import { isIsoDate } from './market-terms.js';

const YAHOO = `Date,Open,High,Low,Close,Adj Close,Volume
2024-01-02,100,110,95,105,52.5,1000
2024-01-03,105,106,100,102,51,2000
`;

function refusal(text: string): string {
  try {
    parseBarsCsv(text, 'bars.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(CsvBarsError);
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('parseBarsCsv', () => {
  it('adjusts open, high, low and close by Adj Close / Close and keeps volume as it is', () => {
    expect(parseBarsCsv(YAHOO, 'bars.csv')).toEqual({
      bars: [
        { date: '2024-01-02', open: 50, high: 55, low: 47.5, close: 52.5, volume: 1000 },
        { date: '2024-01-03', open: 52.5, high: 53, low: 50, close: 51, volume: 2000 },
      ],
      skippedNullRows: 0,
      adjusted: true,
    });
  });

  it('takes the file as it is without Adj Close', () => {
    const parsed = parseBarsCsv('Date,Open,High,Low,Close,Volume\n2024-01-02,100,110,95,105,1000\n', 'x.csv');
    expect(parsed).toMatchObject({ adjusted: false, bars: [{ date: '2024-01-02', open: 100, high: 110, low: 95, close: 105, volume: 1000 }] });
  });

  it("is liberal with the header: case, spaces, underscores, column order, extra columns, BOM, CRLF, vega's lower case", () => {
    const text = '\uFEFF volume , DATE,adj_close,close,low,high,open,dividends\r\n1000,2024-01-02,105,105,95,110,100,0\r\n\r\n';
    expect(parseBarsCsv(text, 'x.csv').bars).toEqual([{ date: '2024-01-02', open: 100, high: 110, low: 95, close: 105, volume: 1000 }]);
    const vega = 'date,open,high,low,close,adjclose,volume\n2000-01-03,1469.25,1478,1438.359985,1455.219971,1455.219971,931800000\n';
    expect(parseBarsCsv(vega, 'sp500.csv').bars[0]).toMatchObject({ date: '2000-01-03', close: 1455.219971 });
  });

  it("skips Yahoo's all-null rows and counts them", () => {
    const text = 'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-01,null,null,null,null,null,null\n2024-01-02,1,1,1,1,1,0\n';
    expect(parseBarsCsv(text, 'x.csv')).toMatchObject({ skippedNullRows: 1, bars: [{ date: '2024-01-02' }] });
  });

  it('allows rounding slack between high/low and open/close', () => {
    const text = 'Date,Open,High,Low,Close,Volume\n2024-01-02,100.001,100,99,99.5,5\n';
    expect(parseBarsCsv(text, 'x.csv').bars).toHaveLength(1);
  });

  it.each([
    ['Date,Open,High,Low,Volume\n', 'bars.csv:1: the header lacks close'],
    ['', 'bars.csv:1: the header lacks date, open, high, low, close, volume'],
    ['Date,Open,High,Low,Close,Volume\n', 'the file holds no bars'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,1,1,1,1\n', 'bars.csv:2: expected 6 fields, found 5'],
    ['Date,Open,High,Low,Close,Volume\n01/02/2024,1,1,1,1,1\n', 'bars.csv:2: date "01/02/2024" is not a calendar date'],
    ['Date,Open,High,Low,Close,Volume\n2024-02-30,1,1,1,1,1\n', 'bars.csv:2: date "2024-02-30"'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,1,1,1,1,1\n2024-01-02,1,1,1,1,1\n', 'bars.csv:3: date 2024-01-02 appears twice'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-03,1,1,1,1,1\n\n2024-01-02,1,1,1,1,1\n', 'bars.csv:4: date 2024-01-02 comes after 2024-01-03'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,abc,1,1,1,1\n', 'bars.csv:2: open "abc" is not a number'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,1,,1,1,1\n', 'bars.csv:2: high "" is not a number'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,1,Infinity,1,1,1\n', 'bars.csv:2: high "Infinity" is not a number'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,null,1,1,1,1\n', 'bars.csv:2: open "null" is not a number'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,10,9,8,9,1\n', 'bars.csv:2: high 9 is below open 10'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,10,12,11,11,1\n', 'bars.csv:2: low 11 is above open 10'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,0,0,0,0,1\n', 'bars.csv:2: low 0 is not a positive price'],
    ['Date,Open,High,Low,Close,Volume\n2024-01-02,1,1,1,1,-5\n', 'bars.csv:2: volume -5 is negative'],
    ['Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,1,1,1,1,0,5\n', 'bars.csv:2: adj close 0 is not a positive price'],
  ])('refuses %j with %s', (text, message) => {
    expect(refusal(text)).toContain(message);
  });

  it('recognises calendar dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-1-2')).toBe(false);
    expect(isIsoDate('2024-01-02T00:00:00Z')).toBe(false);
  });
});
