/**
 * DESIGN.md "Indicator arithmetic": a moving average is the correctly rounded mean of its window (math.fsum(window)
 * / n), so two averages with equal exact means are equal and an exact tie is no crossover. Series built to tie
 * exactly (test/fixtures/exact-sums.ts), and every rolling indicator against a direct per-window exact computation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactMean, exactStddev, naiveSma, tiedMeansSeries } from '../../test/fixtures/exact-sums.js';
import { findTemplate, resolveTemplateParameters, runTemplateBacktest } from './index.js';
import { bollinger, highest, lowest, RENORMALISE, sma, stddev } from './indicators.js';
import { ENTER, TEMPLATE_SIGNALS } from './signals.js';

describe.each([
  // The example: 5-day and 20-day means both exactly 14.846.
  { what: '5/20 means both exactly 14.846', length: 200, fast: 5, slow: 20, meanCents: 1484.6, mean: 14.846 },
  // A long drift first: 100,000 bars of two-decimal prices, then 10/30 means both exactly 14.84.
  { what: '10/30 means both exactly 14.84 after 100,000 bars', length: 100_000, fast: 10, slow: 30, meanCents: 1484, mean: 14.84 },
])('an exact tie is no crossover: $what', ({ length, fast, slow, meanCents, mean }) => {
  const { bars, tieBar } = tiedMeansSeries(length, fast, slow, meanCents, 17);
  const close = bars.close;

  it('is a tie of the exact means, which a plain rolling sum turned into fast > slow', () => {
    expect(exactMean(close.subarray(tieBar - fast + 1, tieBar + 1))).toBe(mean);
    expect(exactMean(close.subarray(tieBar - slow + 1, tieBar + 1))).toBe(mean);
    expect(naiveSma(close, fast)[tieBar]!).toBeGreaterThan(naiveSma(close, slow)[tieBar]!);
  });

  it('gives equal averages on the tie bar, fast below slow the bar before', () => {
    const f = sma(close, fast);
    const s = sma(close, slow);
    expect(f[tieBar]).toBe(mean);
    expect(s[tieBar]).toBe(mean);
    expect(f[tieBar - 1]!).toBeLessThan(s[tieBar - 1]!);
    expect(bollinger(close, slow, 2).middle[tieBar]).toBe(mean);
  });

  it('sma_crossover enters on the real crossing the bar after, not on the tie', () => {
    const params = { fast_period: fast, slow_period: slow };
    const signals = TEMPLATE_SIGNALS.sma_crossover!(bars, params);
    expect(signals[tieBar]! & ENTER).toBe(0);
    expect(signals[tieBar + 1]! & ENTER).toBe(ENTER);
    const template = findTemplate('sma_crossover')!;
    const supplied = [{ name: 'fast_period', value: fast }, { name: 'slow_period', value: slow }];
    const run = runTemplateBacktest(bars, template, resolveTemplateParameters(template, supplied), 100_000);
    const lastBuy = run.trades.filter((t) => t.type === 'BUY').at(-1)!;
    expect(lastBuy.date).toBe(`${bars.dates[tieBar + 2]}T00:00:00.000Z`); // filled at the open after the crossing
  });
});

/** Two-decimal prices (cents / 100), as stored bars are. */
const twoDecimalPrices = fc.array(fc.integer({ min: 1, max: 2_000_000 }), { minLength: 1, maxLength: 400 }).map((cents) => cents.map((c) => c / 100));
/** Doubles over nine orders of magnitude (still within the exactness bound in indicators.ts). */
const widePrices = fc.array(fc.double({ min: 0.001, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 400 });
/** Long enough to cross a few renormalisations of the running sum, windows checked at a sample of bars. */
const longPrices = fc
  .array(fc.integer({ min: 1, max: 100_000 }), { minLength: RENORMALISE * 2, maxLength: RENORMALISE * 3 + 7 })
  .map((cents) => cents.map((c) => c / 100));

function checkWindows(values: readonly number[], period: number, at: (i: number) => boolean): void {
  const x = Float64Array.from(values);
  const average = sma(x, period);
  const deviation = stddev(x, period);
  const bands = bollinger(x, period, 2.5);
  const high = highest(x, period);
  const low = lowest(x, period);
  for (let i = 0; i < x.length; i++) {
    if (i < period - 1) {
      for (const series of [average, deviation, bands.middle, bands.upper, high]) expect(series[i]).toBeNaN();
      continue;
    }
    if (!at(i)) continue;
    const window = values.slice(i - period + 1, i + 1);
    const mean = exactMean(window);
    expect(average[i], `sma at ${i}`).toBe(mean);
    expect(bands.middle[i], `middle at ${i}`).toBe(mean);
    const sd = exactStddev(window);
    // Two passes from the correctly rounded mean: within a few units in the last place of the exact deviation.
    expect(Math.abs(deviation[i]! - sd), `stddev at ${i}: ${deviation[i]} vs ${sd}`).toBeLessThanOrEqual(1e-13 * sd + 1e-300);
    expect(bands.upper[i]).toBe(mean + deviation[i]! * 2.5);
    expect(bands.lower[i]).toBe(mean - deviation[i]! * 2.5);
    expect(high[i]).toBe(Math.max(...window));
    expect(low[i]).toBe(Math.min(...window));
  }
}

describe('rolling indicators against an exact computation of each window', () => {
  it('two-decimal prices: sma and the bands\' middle equal fsum(window)/n, the deviation within 1e-13', () => {
    fc.assert(
      fc.property(twoDecimalPrices, fc.integer({ min: 1, max: 60 }), (values, period) => checkWindows(values, period, () => true)),
      { numRuns: 200, seed: 17 },
    );
  });

  it('doubles from 0.001 to 1e6 (any digits)', () => {
    fc.assert(
      fc.property(widePrices, fc.integer({ min: 1, max: 60 }), (values, period) => checkWindows(values, period, () => true)),
      { numRuns: 200, seed: 18 },
    );
  });

  it('long series, across renormalisations of the running sum (a sample of windows)', () => {
    fc.assert(
      fc.property(longPrices, fc.integer({ min: 2, max: 200 }), (values, period) => checkWindows(values, period, (i) => i % 7 === 0 || i % RENORMALISE < 3)),
      { numRuns: 15, seed: 19 },
    );
  });

  it('a flat window after volatile bars has exactly zero deviation', () => {
    const x = Float64Array.from([...Array.from({ length: 500 }, (_, i) => 100 + ((i * 7919) % 113) / 100), ...new Array(20).fill(101.37)]);
    expect(stddev(x, 20)[x.length - 1]).toBe(0);
    expect(bollinger(x, 20, 2).upper[x.length - 1]).toBe(101.37);
  });
});
