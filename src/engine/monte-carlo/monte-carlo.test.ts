import { describe, expect, it } from 'vitest';
import { monteCarlo, type MonteCarloResult } from './monte-carlo.js';
import { percentileOfSorted, percentilesOf, PERCENTILES } from './percentile.js';

describe('percentilesOf', () => {
  it('reads the same order statistics as a full sort, ties and all', () => {
    let x = 12345;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (const n of [1, 2, 3, 7, 20, 101, 1000]) {
      const values = Float64Array.from({ length: n }, () => Math.floor(next() * 10) / 10); // many ties
      const sorted = Float64Array.from(values).sort();
      expect(percentilesOf(values)).toEqual(Object.fromEntries(['p5', 'p25', 'p50', 'p75', 'p95'].map((key, i) => [key, percentileOfSorted(sorted, PERCENTILES[i]!)])));
    }
  });
});

describe('percentileOfSorted', () => {
  it('interpolates linearly between the nearest order statistics at h = (n − 1) · p', () => {
    const sorted = [10, 20, 30, 40, 50];
    expect(percentileOfSorted(sorted, 0.05)).toBeCloseTo(12, 12); // h = 0.2
    expect(percentileOfSorted(sorted, 0.25)).toBe(20); // h = 1
    expect(percentileOfSorted(sorted, 0.5)).toBe(30);
    expect(percentileOfSorted(sorted, 0.95)).toBeCloseTo(48, 12); // h = 3.8
    expect(percentileOfSorted([7], 0.95)).toBe(7);
  });
});

/** One path as the Monte Carlo compounds it: its final equity and its lowest drawdown. */
function path(capital: number, returns: readonly number[]): { final: number; drawdown: number } {
  let equity = capital;
  let peak = equity;
  let lowest = 0;
  for (const r of returns) {
    equity *= 1 + r;
    if (equity > peak) peak = equity;
    else if (equity / peak - 1 < lowest) lowest = equity / peak - 1;
  }
  return { final: equity, drawdown: lowest };
}

const orderings = (xs: readonly number[]): number[][] =>
  xs.length <= 1 ? [[...xs]] : xs.flatMap((x, i) => orderings([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
const resamples = (xs: readonly number[], length = xs.length): number[][] =>
  length === 0 ? [[]] : resamples(xs, length - 1).flatMap((rest) => xs.map((x) => [...rest, x]));

/**
 * The p-quantile of equally likely outcomes: the least value whose cumulative probability reaches p. The sample
 * percentile of many runs settles on it when no step of the distribution lies near p, which this checks (so the
 * case, not luck, decides the test).
 */
function exactQuantile(values: readonly number[], p: number, runs: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const steps = sorted.map((_, i) => (i + 1) / sorted.length).filter((c, i) => i + 1 === sorted.length || sorted[i + 1] !== sorted[i]);
  const margin = 5 * Math.sqrt((p * (1 - p)) / runs); // five standard deviations of the sample's cumulative share at p
  expect(steps.filter((c) => Math.abs(c - p) <= margin), `steps of the distribution near ${p}`).toEqual([]);
  return sorted[Math.ceil(p * sorted.length) - 1]!;
}

function expectExact(result: MonteCarloResult, outcomes: readonly { final: number; drawdown: number }[], capital: number) {
  const keys = ['p5', 'p25', 'p50', 'p75', 'p95'] as const;
  PERCENTILES.forEach((p, i) => {
    expect(result.final_equity[keys[i]!]).toBe(exactQuantile(outcomes.map((o) => o.final), p, result.runs));
    expect(result.max_drawdown[keys[i]!]).toBe(exactQuantile(outcomes.map((o) => o.drawdown), p, result.runs));
  });
  const lossProbability = outcomes.filter((o) => o.final < capital).length / outcomes.length;
  const deviation = Math.sqrt((lossProbability * (1 - lossProbability)) / result.runs);
  expect(Math.abs(result.probability_of_loss - lossProbability)).toBeLessThan(4 * deviation + 1e-12);
}

describe('monteCarlo', () => {
  const capital = 1000;

  it('bootstrap: matches the exact distribution over all n^n resamples of three trades', () => {
    const returns = [0.1, -0.2, 0.05];
    const outcomes = resamples(returns).map((r) => path(capital, r)); // 27, equally likely
    const result = monteCarlo({ returns, initialCapital: capital, runs: 100_000, seed: 1, method: 'bootstrap' });
    expectExact(result, outcomes, capital);
  });

  it('shuffle: trades compounding to exactly the capital are no loss in any order (compared in cents, not by the last bit)', () => {
    // (1.1)(1/1.1)(0.8)(1/0.8)(1.3)(1/1.3)(1.07)(1/1.07) = 1 exactly; the float products differ by order in the last bit.
    const returns = [0.1, 1 / 1.1 - 1, -0.2, 1 / 0.8 - 1, 0.3, 1 / 1.3 - 1, 0.07, 1 / 1.07 - 1];
    const result = monteCarlo({ returns, initialCapital: 10_000, runs: 1_000, seed: 1, method: 'shuffle' });
    expect(result.probability_of_loss).toBe(0);
  });

  it('shuffle: matches the exact distribution over all orderings of five trades; the final equity never changes', () => {
    const returns = [0.3, 0.2, 0.1, -0.2, -0.05];
    const outcomes = orderings(returns).map((r) => path(capital, r)); // 120, equally likely
    const result = monteCarlo({ returns, initialCapital: capital, runs: 100_000, seed: 3, method: 'shuffle' });
    const product = returns.reduce((e, r) => e * (1 + r), capital);
    for (const value of Object.values(result.final_equity)) expect(value).toBeCloseTo(product, 9);
    const keys = ['p5', 'p25', 'p50', 'p75', 'p95'] as const;
    PERCENTILES.forEach((p, i) => expect(result.max_drawdown[keys[i]!]).toBe(exactQuantile(outcomes.map((o) => o.drawdown), p, result.runs)));
    expect(result.probability_of_loss).toBe(product < capital ? 1 : 0);
  });

  it('gives the bands at every trade number, starting at the capital', () => {
    const result = monteCarlo({ returns: [0.1, -0.2, 0.05], initialCapital: capital, runs: 500, seed: 1, method: 'bootstrap' });
    expect(result.bands.trade_numbers).toEqual([0, 1, 2, 3]);
    expect(result.bands.p50[0]).toBe(capital);
    expect(result.bands.p5[3]).toBe(result.final_equity.p5);
    expect(result.bands.actual).toEqual([capital, capital * 1.1, capital * 1.1 * 0.8, capital * 1.1 * 0.8 * 1.05]);
    expect(result.trades).toBe(3);
  });

  it('gives 101 band points spread evenly over many trades', () => {
    const returns = Array.from({ length: 250 }, (_, i) => (i % 3 === 0 ? -0.01 : 0.01));
    const result = monteCarlo({ returns, initialCapital: capital, runs: 50, seed: 9, method: 'bootstrap' });
    expect(result.bands.trade_numbers).toHaveLength(101);
    expect(result.bands.trade_numbers.slice(0, 4)).toEqual([0, 3, 5, 8]);
    expect(result.bands.trade_numbers.at(-1)).toBe(250);
  });

  it('gives the same bytes for the same seed, other bytes for another', () => {
    const input = { returns: [0.1, -0.2, 0.05, 0.02, -0.07], initialCapital: capital, runs: 1000, seed: 42, method: 'bootstrap' as const };
    expect(JSON.stringify(monteCarlo(input))).toBe(JSON.stringify(monteCarlo(input)));
    expect(JSON.stringify(monteCarlo({ ...input, seed: 43 }))).not.toBe(JSON.stringify(monteCarlo(input)));
  });
});
