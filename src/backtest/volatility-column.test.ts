import { describe, expect, it } from 'vitest';
import { volatilityColumn } from './volatility-column.js';

describe('volatilityColumn', () => {
  it('gives the index close / 100 on each date, the last close carried over a missing date, NaN before its first bar', () => {
    const index = { dates: ['2024-01-03', '2024-01-05', '2024-01-09'], close: [20, 25, 30] };
    const dates = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-10'];
    expect(Array.from(volatilityColumn(dates, index))).toEqual([NaN, 0.2, 0.2, 0.25, 0.25, 0.3]);
  });

  it('carries a close two weeks at most: an index that stopped prices nothing after that', () => {
    const index = { dates: ['2024-01-02'], close: [20] };
    expect(Array.from(volatilityColumn(['2024-01-02', '2024-01-16', '2024-01-17', '2024-06-03'], index))).toEqual([0.2, 0.2, NaN, NaN]);
  });

  it('is all NaN for an index with no bar on or before the last date', () => {
    expect(Array.from(volatilityColumn(['2024-01-02'], { dates: ['2024-02-01'], close: [15] }))).toEqual([NaN]);
  });
});
