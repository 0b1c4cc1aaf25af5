import { describe, expect, it } from 'vitest';
import { scaledExactly } from '../../../test/fixtures/exact-sums.js';
import { EngineError } from '../engine-error.js';
import { maxDrawdown, sharpeRatio } from '../metrics.js';
import { benchmarkRun, dailyReturns, relativeMetrics } from './index.js';

const curve = (...values: number[]) => Float64Array.from(values);

describe('benchmarkRun', () => {
  it('holds the benchmark from the first close with the same capital, a missing date carrying the last close', () => {
    // The backtest trades on 01-02 … 01-08; the benchmark has no bar on 01-04 (carries 01-03's 110) and one on
    // 01-06, a date the backtest lacks (skipped), and starts before the backtest (01-01, not used).
    const dates = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08'];
    const bars = { dates: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-05', '2024-01-06', '2024-01-08'], close: [90, 100, 110, 88, 500, 120] };
    const run = benchmarkRun('SPY', dates, bars, 1_000);
    // 1,000 × close / 100
    expect([...run.equity]).toEqual([1_000, 1_100, 1_100, 880, 1_200]);
    expect([...run.drawdowns]).toEqual([0, 0, 0, 880 / 1_100 - 1, 0]);
    expect(run.total_return).toBeCloseTo(0.2, 15);
    expect(run.max_drawdown).toBe(maxDrawdown(run.drawdowns));
    expect(run.sharpe_ratio).toBe(sharpeRatio(run.equity));
    // (1.2)^(365.25 / 6) − 1 over the 6 calendar days from 01-02 to 01-08
    expect(run.annualized_return).toBeCloseTo(Math.pow(1.2, 365.25 / 6) - 1, 6);
  });

  it('carries the benchmark’s last close before the backtest’s first date', () => {
    const run = benchmarkRun('SPY', ['2024-01-06', '2024-01-08'], { dates: ['2024-01-05', '2024-01-08'], close: [50, 75] }, 200);
    expect([...run.equity]).toEqual([200, 300]);
  });

  it('refuses a backtest date before the benchmark’s first bar (benchmark_too_short), and a benchmark without bars', () => {
    const refusal = (bars: { dates: string[]; close: number[] }) => {
      try {
        benchmarkRun('QQQ', ['2024-01-02', '2024-01-03'], bars, 1_000);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const late = refusal({ dates: ['2024-01-03'], close: [10] });
    expect(late).toBeInstanceOf(EngineError);
    expect(late).toMatchObject({ code: 'benchmark_too_short', details: [{ field: 'body.benchmark', message: 'has no bar on or before 2024-01-02' }] });
    expect((late as Error).message).toContain('QQQ has bars only from 2024-01-03');
    expect(refusal({ dates: [], close: [] })).toMatchObject({ code: 'benchmark_too_short' });
  });
});

describe('relativeMetrics', () => {
  it('gives a strategy measured against itself a beta of exactly 1, an alpha of exactly 0 and no information ratio', () => {
    const equity = curve(100_000, 101_250.5, 99_870.25, 102_400, 102_400, 98_000.75, 104_321.12);
    expect(relativeMetrics(equity, equity.slice())).toEqual({ alpha: 0, beta: 1, information_ratio: null });
  });

  it('agrees with exact rational arithmetic on the returns', () => {
    const strategy = curve(10_000, 10_120.37, 10_050.11, 10_300.99, 10_290.5, 10_410.03, 10_388.8, 10_502.17);
    const benchmark = curve(10_000, 10_080, 10_020.4, 10_150.75, 10_190.2, 10_230.6, 10_199.9, 10_260.35);
    const exact = exactRelative(dailyReturns(strategy), dailyReturns(benchmark));
    const ours = relativeMetrics(strategy, benchmark);
    for (const key of ['alpha', 'beta', 'information_ratio'] as const) {
      expect(Math.abs(ours[key]! - exact[key]) / Math.abs(exact[key])).toBeLessThan(1e-12);
    }
    expect(ours.beta).not.toBe(1);
  });

  it('is null where a denominator is 0: a flat benchmark, too few returns, a strategy tracking its benchmark at a constant spread', () => {
    const strategy = curve(100, 110, 99, 120);
    expect(relativeMetrics(strategy, curve(100, 100, 100, 100))).toMatchObject({ alpha: null, beta: null });
    expect(relativeMetrics(curve(100, 110), curve(100, 105))).toEqual({ alpha: null, beta: null, information_ratio: null });
    // Returns 100 %, 300 %, 100 %, 300 % against 0 %, 200 %, 0 %, 200 %: r − b is 1 every day (no deviation), so no
    // information ratio; r = b + 1 gives beta 1 and alpha (mean r − mean b) × 252 = (2 − 1) × 252, all exact in doubles.
    expect(relativeMetrics(curve(100, 200, 800, 1_600, 6_400), curve(100, 100, 300, 300, 900))).toEqual({ alpha: 252, beta: 1, information_ratio: null });
  });

  it('refuses curves of different lengths', () => {
    expect(() => relativeMetrics(curve(1, 2), curve(1, 2, 3))).toThrow(RangeError);
  });
});

/**
 * beta, alpha and the information ratio of the given returns (the doubles the engine computes) in exact rational
 * arithmetic: each return as an integer over 2^1100, sums and products exact, rounded once at the end.
 */
function exactRelative(r: Float64Array, b: Float64Array): { alpha: number; beta: number; information_ratio: number } {
  const n = BigInt(r.length);
  const R = Array.from(r, scaledExactly);
  const B = Array.from(b, scaledExactly);
  const D = R.map((x, i) => x - B[i]!);
  const sum = (xs: bigint[]) => xs.reduce((a, x) => a + x, 0n);
  const sumR = sum(R);
  const sumB = sum(B);
  const sumRB = sum(R.map((x, i) => x * B[i]!));
  const sumBB = sum(B.map((x) => x * x));
  const betaNum = n * sumRB - sumR * sumB;
  const betaDen = n * sumBB - sumB * sumB;
  // alpha = 252 (ΣR − beta ΣB) / n, over 2^1100
  const alphaNum = 252n * (sumR * betaDen - betaNum * sumB);
  const alphaDen = n * betaDen;
  const sumD = sum(D);
  const spread = n * sum(D.map((x) => x * x)) - sumD * sumD;
  const irSquared = ratio(sumD * sumD * (n - 1n) * 252n, n * spread);
  return {
    beta: ratio(betaNum, betaDen),
    alpha: ratio(alphaNum, alphaDen << 1100n), // alphaNum carries one factor 2^1100 more than alphaDen
    information_ratio: Math.sign(Number(sumD)) * Math.sqrt(irSquared),
  };
}

/** num / den for BigInts, to about 200 bits. */
function ratio(num: bigint, den: bigint): number {
  const sign = (num < 0n) !== (den < 0n) ? -1 : 1;
  const a = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  return (sign * Number((a << 200n) / d)) / 2 ** 200;
}
