/**
 * The bars a backtest's benchmark is valued on (docs/backtesting.md "Benchmark"): the backtested symbol's own bars
 * when it is its own benchmark, else the benchmark's closes read through the market-data service (so a provider
 * fetches a symbol it has not stored, as it does for the backtested symbol) from two weeks before the backtest's
 * first date, so a first date the benchmark's market was closed on carries its last close (from the first stored bar
 * when those two weeks hold none on or before it).
 */
import { AppError, NotFound } from '../platform/errors.js';
import { EARLIEST_DATE, type DataFeed } from '../market/market-terms.js';
import type { MarketData } from '../market/market-data.service.js';
import type { BenchmarkBars } from '../engine/benchmark/index.js';

/** Calendar days read before the backtest's first date: longer than any market holiday. */
const LOOKBACK_DAYS = 14;
const DAY_MS = 86_400_000;

export interface LoadedBenchmark {
  readonly symbol: string;
  readonly bars: BenchmarkBars;
  /** The benchmark's bars_version, for the response cache's key. */
  readonly version: number;
}

/** The backtested series itself when `symbol` is the backtested symbol, else `benchmarkBars`. */
export async function benchmarkFor(
  marketData: MarketData,
  symbol: string,
  own: { readonly symbol: string; readonly series: BenchmarkBars; readonly version: number },
  feed: DataFeed,
): Promise<LoadedBenchmark> {
  if (symbol === own.symbol) return { symbol, bars: own.series, version: own.version };
  return benchmarkBars(marketData, symbol, own.series.dates, feed);
}

/** The benchmark `symbol` over `dates` (the backtest's, ascending); 404 `unknown_symbol` naming `body.benchmark`. */
export async function benchmarkBars(marketData: MarketData, symbol: string, dates: readonly string[], feed: DataFeed): Promise<LoadedBenchmark> {
  const first = dates[0]!;
  const last = dates[dates.length - 1]!;
  const from = new Date(Date.parse(`${first}T00:00:00Z`) - LOOKBACK_DAYS * DAY_MS).toISOString().slice(0, 10);
  try {
    const read = await marketData.barsFor(symbol, from, last, feed);
    if (read.series.dates.length > 0 && read.series.dates[0]! <= first) return { symbol, bars: read.series, version: read.version };
    // No bar in the two weeks before the first date (a monthly series, a long halt): its last one before may be older.
    // Only a benchmark with no bar at all on or before the first date is too short (the engine refuses it).
    const { series, version } = await marketData.barsFor(symbol, EARLIEST_DATE, last, feed);
    return { symbol, bars: series, version };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unknown_symbol') {
      throw new NotFound('unknown_symbol', `We have no prices for the benchmark ${symbol}. GET /api/symbols lists the symbols we have.`, [
        { field: 'body.benchmark', message: 'has no stored prices and no provider knows it' },
      ]);
    }
    throw error;
  }
}
