/**
 * The benchmark beside a backtest (DESIGN.md "Execution model", docs/backtesting.md "Benchmark"): the benchmark
 * symbol held from the backtest's first close with the same capital, fractional units, no costs, on the backtest's
 * own dates. A date the benchmark has no bar on carries its last close; a backtest date before the benchmark's
 * first bar cannot be valued, so the engine refuses it (`benchmark_too_short`).
 */
import { calendarDaysBetween } from '../dates.js';
import { EngineError } from '../engine-error.js';
import { annualizedReturn, maxDrawdown, sharpeRatio } from '../metrics.js';
import { drawdownCurve } from '../simulate.js';

/** The benchmark's daily closes: `dates` ascending and unique, aligned with `close`. */
export interface BenchmarkBars {
  readonly dates: readonly string[];
  readonly close: ArrayLike<number>;
}

export interface BenchmarkRun {
  /** Aligned with the backtest's dates: capital × close[t] / close[first]; equity[0] is the capital. */
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly total_return: number;
  readonly annualized_return: number | null;
  readonly max_drawdown: number;
  readonly sharpe_ratio: number | null;
}

/**
 * The benchmark's equity on `dates` (the backtest's, ascending, at least one) and its metrics, by the same
 * functions as a backtest's (metrics.ts). `symbol` names the benchmark in a refusal.
 */
export function benchmarkRun(symbol: string, dates: readonly string[], bars: BenchmarkBars, capital: number): BenchmarkRun {
  const closes = closesOn(symbol, dates, bars);
  const first = closes[0]!;
  const equity = new Float64Array(dates.length);
  for (let t = 0; t < dates.length; t++) equity[t] = t === 0 ? capital : (capital * closes[t]!) / first;
  const drawdowns = drawdownCurve(equity);
  const final = equity[equity.length - 1]!;
  return {
    equity,
    drawdowns,
    total_return: final / capital - 1,
    annualized_return: annualizedReturn(capital, final, calendarDaysBetween(dates[0]!, dates[dates.length - 1]!)),
    max_drawdown: maxDrawdown(drawdowns),
    sharpe_ratio: sharpeRatio(equity),
  };
}

/** The benchmark's close on each date, a missing date carrying the last close before it. */
function closesOn(symbol: string, dates: readonly string[], bars: BenchmarkBars): Float64Array {
  if (bars.dates.length === 0 || bars.dates[0]! > dates[0]!) {
    const since = bars.dates.length === 0 ? 'has no bars in that period' : `has bars only from ${bars.dates[0]}`;
    throw new EngineError(
      'benchmark_too_short',
      `The benchmark ${symbol} ${since}, after the backtest's first date ${dates[0]}: pick a benchmark with prices from that date, or start the backtest later.`,
      [{ field: 'body.benchmark', message: `has no bar on or before ${dates[0]}` }],
    );
  }
  const closes = new Float64Array(dates.length);
  let j = 0;
  for (let t = 0; t < dates.length; t++) {
    while (j + 1 < bars.dates.length && bars.dates[j + 1]! <= dates[t]!) j++;
    closes[t] = bars.close[j]!;
  }
  return closes;
}
