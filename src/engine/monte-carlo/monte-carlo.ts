/**
 * Monte Carlo robustness of a backtest (docs/backtesting.md "Monte Carlo"): the closed trades' returns resampled
 * `runs` times — drawn with replacement (bootstrap) or put in a random order (shuffle) — each path compounded on the
 * starting capital in trade order, and the distribution of the paths' final equity and maximum drawdown.
 */
import { roundMoney } from '../round.js';
import { percentilesOf, type Percentiles } from './percentile.js';
import { Xoshiro128 } from './prng.js';

export type ResampleMethod = 'bootstrap' | 'shuffle';

export interface MonteCarloInput {
  /** The closed trades' returns (fractions), in trade order; at least one. */
  readonly returns: readonly number[];
  readonly initialCapital: number;
  readonly runs: number;
  readonly seed: number;
  readonly method: ResampleMethod;
}

export interface EquityBands extends Record<'p5' | 'p25' | 'p50' | 'p75' | 'p95', number[]> {
  /** The trade numbers k (0 = the start) at which the bands are given: every one up to 100 trades, else 101 spread evenly. */
  trade_numbers: number[];
  /** The trades in their actual order, compounded like a path, at the same trade numbers. */
  actual: number[];
}

export interface MonteCarloResult {
  runs: number;
  seed: number;
  method: ResampleMethod;
  trades: number;
  final_equity: Percentiles;
  max_drawdown: Percentiles;
  /** The fraction of runs whose final equity is below the starting capital. */
  probability_of_loss: number;
  bands: EquityBands;
}

/** The most points of the bands: a fan chart needs no more, and each point costs a sort of `runs` values. */
export const MAX_BAND_POINTS = 101;

export function monteCarlo(input: MonteCarloInput): MonteCarloResult {
  const { returns, initialCapital, runs, seed, method } = input;
  const n = returns.length;
  if (n === 0) throw new RangeError('monteCarlo needs at least one trade');
  const random = Xoshiro128.seeded(seed);
  const points = bandPoints(n);
  const atPoint = new Int32Array(n + 1).fill(-1);
  points.forEach((k, j) => (atPoint[k] = j));
  const columns = points.map(() => new Float64Array(runs));
  const finals = new Float64Array(runs);
  const drawdowns = new Float64Array(runs);
  const order = Float64Array.from(returns);
  let losses = 0;
  for (let run = 0; run < runs; run++) {
    if (method === 'shuffle') {
      order.set(returns); // each run shuffles the trades from their actual order
      shuffle(order, random);
    }
    let equity = initialCapital;
    let peak = equity;
    let lowest = 0;
    columns[0]![run] = equity;
    for (let k = 1; k <= n; k++) {
      equity *= 1 + (method === 'shuffle' ? order[k - 1]! : returns[random.below(n)]!);
      if (equity > peak) peak = equity;
      else if (equity / peak - 1 < lowest) lowest = equity / peak - 1;
      const j = atPoint[k]!;
      if (j >= 0) columns[j]![run] = equity;
    }
    finals[run] = equity;
    drawdowns[run] = lowest;
    // In cents: a shuffle's paths all end alike in exact arithmetic, and the float product's last bit must not make a loss.
    if (roundMoney(equity) < roundMoney(initialCapital)) losses++;
  }
  const bands: EquityBands = { trade_numbers: points, p5: [], p25: [], p50: [], p75: [], p95: [], actual: actualPath(returns, initialCapital, points) };
  for (const column of columns) {
    const p = percentilesOf(column);
    bands.p5.push(p.p5);
    bands.p25.push(p.p25);
    bands.p50.push(p.p50);
    bands.p75.push(p.p75);
    bands.p95.push(p.p95);
  }
  return {
    runs,
    seed,
    method,
    trades: n,
    final_equity: percentilesOf(finals),
    max_drawdown: percentilesOf(drawdowns),
    probability_of_loss: losses / runs,
    bands,
  };
}

/** Fisher–Yates, from the last place down: each ordering equally likely whatever the order it starts from. */
function shuffle(values: Float64Array, random: Xoshiro128): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    const v = values[i]!;
    values[i] = values[j]!;
    values[j] = v;
  }
}

function actualPath(returns: readonly number[], initialCapital: number, points: readonly number[]): number[] {
  const equity = [initialCapital];
  for (const r of returns) equity.push(equity.at(-1)! * (1 + r));
  return points.map((k) => equity[k]!);
}

/** 0 … n when n < MAX_BAND_POINTS, else round(j · n / 100) for j = 0 … 100. */
function bandPoints(n: number): number[] {
  const steps = Math.min(n, MAX_BAND_POINTS - 1);
  return Array.from({ length: steps + 1 }, (_, j) => Math.round((j * n) / steps));
}
