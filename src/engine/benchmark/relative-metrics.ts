/**
 * A strategy measured against its benchmark from the two equity curves' daily returns r (strategy) and b
 * (benchmark), aligned on the same dates (DESIGN.md "Execution model"): beta = cov(r, b) / var(b) (sample),
 * alpha = (mean(r) − beta × mean(b)) × 252, information ratio = mean(r − b) / stdev(r − b) × √252 (sample).
 * A ratio whose denominator is 0 (fewer than 2 returns, a benchmark whose returns never vary, a strategy that
 * tracks it exactly) is null.
 */
import { sharpeFromSums, TRADING_DAYS_PER_YEAR } from '../metrics.js';

export interface RelativeMetrics {
  readonly alpha: number | null;
  readonly beta: number | null;
  readonly information_ratio: number | null;
}

/** Requires two curves of the same length. */
export function relativeMetrics(strategy: Float64Array, benchmark: Float64Array): RelativeMetrics {
  if (strategy.length !== benchmark.length) throw new RangeError('The strategy and its benchmark must be valued on the same dates.');
  const r = dailyReturns(strategy);
  const b = dailyReturns(benchmark);
  const beta = betaOf(r, b);
  return {
    beta,
    alpha: beta === null ? null : finiteOrNull((mean(r) - beta * mean(b)) * TRADING_DAYS_PER_YEAR),
    information_ratio: informationRatio(r, b),
  };
}

/**
 * equity[t] / equity[t − 1] − 1 for t ≥ 1, as the Sharpe ratio takes them (metrics.ts): an unchanged equity is a
 * return of exactly 0, and so is a return from an equity of 0.
 */
export function dailyReturns(equity: Float64Array): Float64Array {
  const returns = new Float64Array(Math.max(0, equity.length - 1));
  for (let t = 1; t < equity.length; t++) {
    const before = equity[t - 1]!;
    const now = equity[t]!;
    returns[t - 1] = now === before || before === 0 ? 0 : now / before - 1;
  }
  return returns;
}

/**
 * Σ (r − r̄)(b − b̄) / Σ (b − b̄)², two passes over returns shifted by the first of each: returns that never vary
 * are then exactly 0 and their variance exactly 0 (null), where the mean's rounding would leave noise; and a
 * strategy measured against itself multiplies the very same deviations, so its beta is exactly 1.
 */
function betaOf(r: Float64Array, b: Float64Array): number | null {
  const n = r.length;
  if (n < 2) return null;
  const rMean = shiftedMean(r);
  const bMean = shiftedMean(b);
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const dr = r[i]! - r[0]! - rMean;
    const db = b[i]! - b[0]! - bMean;
    covariance += dr * db;
    variance += db * db;
  }
  return variance === 0 ? null : finiteOrNull(covariance / variance);
}

/** mean(r − b) / sample stdev(r − b) × √252: the Sharpe ratio's arithmetic (metrics.ts) on the differences. */
function informationRatio(r: Float64Array, b: Float64Array): number | null {
  const n = r.length;
  if (n < 2) return null;
  const shift = r[0]! - b[0]!;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = r[i]! - b[i]! - shift;
    sum += d;
    squares += d * d;
  }
  return sharpeFromSums(sum, squares, n, shift);
}

/** The mean of x[i] − x[0]. */
function shiftedMean(x: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i]! - x[0]!;
  return sum / x.length;
}

function mean(x: Float64Array): number {
  return x.length === 0 ? 0 : x[0]! + shiftedMean(x);
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
