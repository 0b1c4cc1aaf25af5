import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BollingerBands, DonchianChannels, EMA, MACD, RSI, SMA } from 'trading-signals';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import { bollinger, ema, highest, lowest, macd, rsi, sma } from './indicators.js';

const bars = loadSpxBars();
const close = Array.from(bars.close);
const RELATIVE = 1e-9;

/** Every index: both NaN/null during warm-up, else equal within RELATIVE. Returns how many values were compared. */
function expectSeries(ours: Float64Array, reference: readonly (number | null)[]): number {
  expect(ours.length).toBe(reference.length);
  let compared = 0;
  for (let i = 0; i < ours.length; i++) {
    const expected = reference[i];
    if (expected === null || expected === undefined) {
      expect(ours[i], `index ${i} should still be warming up`).toBeNaN();
      continue;
    }
    const actual = ours[i]!;
    const scale = Math.max(1, Math.abs(expected));
    if (!(Math.abs(actual - expected) <= RELATIVE * scale)) {
      expect.fail(`index ${i}: ${actual} differs from trading-signals' ${expected}`);
    }
    compared++;
  }
  return compared;
}

function stable<R>(indicator: { add(x: number): unknown; isStable: boolean; getResult(): R | null }, values: number[]) {
  return values.map((value) => {
    indicator.add(value);
    return indicator.isStable ? indicator.getResult() : null;
  });
}

describe('indicators agree with trading-signals on the SPX series (2000–2020)', () => {
  it('has the whole series', () => {
    expect(close.length).toBe(5105);
  });

  it.each([2, 10, 30, 200])('sma(%i)', (period) => {
    expect(expectSeries(sma(bars.close, period), stable(new SMA(period), close))).toBe(close.length - period + 1);
  });

  it.each([2, 12, 26, 200])('ema(%i), seeded with the first close', (period) => {
    expect(expectSeries(ema(bars.close, period), stable(new EMA(period), close))).toBe(close.length - period + 1);
  });

  it.each([2, 14, 30])('rsi(%i), Wilder smoothing', (period) => {
    expect(expectSeries(rsi(bars.close, period), stable(new RSI(period), close))).toBe(close.length - period);
  });

  it.each([
    [12, 26, 9],
    [5, 35, 5],
  ])('macd(%i, %i, %i)', (fast, slow, signal) => {
    const reference = new MACD(new EMA(fast), new EMA(slow), new EMA(signal));
    const results = close.map((value) => reference.add(value));
    const ours = macd(bars.close, fast, slow, signal);
    // trading-signals reports the line from index slow − 1 and a signal line from the same bar (still warming up);
    // we report the signal once its EMA has seen `signal` values, and compare from there.
    expectSeries(ours.line, results.map((r) => r?.macd ?? null));
    const signalStart = slow + signal - 2;
    const stableOnly = (pick: (r: { macd: number; signal: number; histogram: number }) => number) =>
      results.map((r, i) => (r && i >= signalStart ? pick(r) : null));
    expect(expectSeries(ours.signal, stableOnly((r) => r.signal))).toBe(close.length - signalStart);
    expectSeries(ours.histogram, stableOnly((r) => r.histogram));
  });

  it.each([
    [20, 2],
    [5, 1.5],
    [100, 3],
  ])('bollinger(%i, %f), population standard deviation', (period, width) => {
    const reference = new BollingerBands(period, width);
    const results = close.map((value) => reference.add(value));
    const ours = bollinger(bars.close, period, width);
    expectSeries(ours.middle, results.map((r) => r?.middle ?? null));
    expectSeries(ours.upper, results.map((r) => r?.upper ?? null));
    expect(expectSeries(ours.lower, results.map((r) => r?.lower ?? null))).toBe(close.length - period + 1);
  });

  it.each([2, 10, 20, 55])('highest/lowest(%i) match Donchian channels', (period) => {
    const reference = new DonchianChannels(period);
    const results = close.map((_value, i) => reference.add({ high: bars.high[i]!, low: bars.low[i]! }));
    expectSeries(highest(bars.high, period), results.map((r) => r?.upper ?? null));
    expect(expectSeries(lowest(bars.low, period), results.map((r) => r?.lower ?? null))).toBe(close.length - period + 1);
  });
});

describe('indicators on short or flat input', () => {
  const flat = new Float64Array(30).fill(50);

  it('are all NaN when the series is shorter than the warm-up', () => {
    const three = new Float64Array([1, 2, 3]);
    for (const series of [sma(three, 4), ema(three, 4), rsi(three, 3), highest(three, 4), lowest(three, 4)]) {
      expect(Array.from(series).every(Number.isNaN)).toBe(true);
    }
    expect(Array.from(macd(three, 2, 5, 2).signal).every(Number.isNaN)).toBe(true);
    expect(Array.from(bollinger(three, 4, 2).middle).every(Number.isNaN)).toBe(true);
  });

  it('keep a flat series exactly flat: zero-width bands, RSI 100 as trading-signals', () => {
    const bands = bollinger(flat, 5, 2);
    expect(bands.upper[29]).toBe(50);
    expect(bands.lower[29]).toBe(50);
    expect(sma(flat, 7)[29]).toBe(50);
    expect(ema(flat, 7)[29]).toBe(50);
    expect(rsi(flat, 14)[29]).toBe(100);
  });

  it('compute small windows as written by hand', () => {
    const x = new Float64Array([1, 3, 2, 6, 4]);
    expect(Array.from(sma(x, 3))).toEqual([NaN, NaN, 2, 11 / 3, 4]);
    expect(Array.from(highest(x, 2))).toEqual([NaN, 3, 3, 6, 6]);
    expect(Array.from(lowest(x, 3))).toEqual([NaN, NaN, 1, 2, 2]);
    // k = 2/3: e = 1, 1/3 + 2 = 2.333…, then 2·2/3 + 2.333…/3 = 2.111…
    const e = ema(x, 2);
    expect(e[0]).toBeNaN();
    expect(e[1]).toBeCloseTo(7 / 3, 12);
    expect(e[2]).toBeCloseTo(4 / 3 + 7 / 9, 12);
  });
});

describe('highest/lowest against a naive window scan', () => {
  it('agree for random series and periods (ring-buffer wrap-around included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 40 }),
        (numbers, period) => {
          const x = Float64Array.from(numbers);
          const high = highest(x, period);
          const low = lowest(x, period);
          for (let i = 0; i < x.length; i++) {
            if (i < period - 1) {
              expect(high[i]).toBeNaN();
              continue;
            }
            const window = numbers.slice(i - period + 1, i + 1);
            expect(high[i]).toBe(Math.max(...window));
            expect(low[i]).toBe(Math.min(...window));
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
