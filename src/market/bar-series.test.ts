import { describe, expect, it } from 'vitest';
import { barSeriesFromBars, SeriesSlices, sliceSeries } from './bar-series.js';

const bars = ['2020-01-02', '2020-01-03', '2020-01-06', '2020-01-07', '2020-01-08'].map((date, i) => ({ date, open: i, high: i + 1, low: i - 1, close: i + 0.5, volume: 100 }));

describe('SeriesSlices', () => {
  const series = barSeriesFromBars(bars);

  it('hands out the same object for a period asked for again, equal to sliceSeries', () => {
    const slices = new SeriesSlices(series);
    const first = slices.slice('2020-01-03', '2020-01-07');
    expect(first).toEqual(sliceSeries(series, '2020-01-03', '2020-01-07'));
    expect(first.dates).toEqual(['2020-01-03', '2020-01-06', '2020-01-07']);
    // Another spelling of the same bars (a weekend at either end) is the same slice.
    expect(slices.slice('2020-01-03', '2020-01-07')).toBe(first);
    expect(slices.slice('2020-01-03', '2020-01-07T23:59')).toBe(first);
    expect(slices.slice('2020-01-01', '2020-12-31')).toBe(series);
  });

  it('keeps the last `capacity` periods', () => {
    const slices = new SeriesSlices(series, 2);
    const a = slices.slice('2020-01-02', '2020-01-02');
    const b = slices.slice('2020-01-03', '2020-01-03');
    expect(slices.slice('2020-01-02', '2020-01-02')).toBe(a);
    slices.slice('2020-01-06', '2020-01-06');
    expect(slices.slice('2020-01-02', '2020-01-02')).toBe(a);
    expect(slices.slice('2020-01-03', '2020-01-03')).not.toBe(b);
  });
});
