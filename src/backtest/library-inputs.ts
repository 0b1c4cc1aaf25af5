/**
 * The inputs of a library backtest (POST /api/backtest/run) that the equity and the options replays both read: the
 * symbols to replay, the stored rules compiled, their signals on a series, the bars and the default benchmark.
 */
import { AppError, BadRequest, Unprocessable } from '../platform/errors.js';
import { assertTicker, describePeriod, type Period } from '../market/market-terms.js';
import type { MarketData } from '../market/market-data.service.js';
import type { BarSeries } from '../market/bar-series.js';
import { compileRule, evaluateRules, RuleError, type CompiledRule } from '../strategies/grammar/index.js';
import { benchmarkBars, type LoadedBenchmark } from './benchmark-bars.js';
import { MAX_SYMBOLS } from './library-backtest.schema.js';

/**
 * The library run's benchmark: the one the request names, else the first replayed symbol (sorted) with a bar on the
 * timeline's first date, so the default always covers the timeline. A replayed symbol is valued on the bars already
 * read; any other is read like a legacy backtest's benchmark (benchmark-bars.ts).
 */
export async function libraryBenchmark(
  marketData: MarketData,
  named: string | undefined,
  bars: readonly { symbol: string; series: BarSeries; version: number }[],
): Promise<LoadedBenchmark> {
  const start = bars.reduce((first, b) => (b.series.dates[0]! < first ? b.series.dates[0]! : first), bars[0]!.series.dates[0]!);
  const end = bars.reduce((last, b) => (b.series.dates.at(-1)! > last ? b.series.dates.at(-1)! : last), bars[0]!.series.dates.at(-1)!);
  const own = bars.find((b) => (named === undefined || b.symbol === named) && b.series.dates[0] === start);
  if (own) return { symbol: own.symbol, bars: own.series, version: own.version };
  return benchmarkBars(marketData, named!, [start, end], 'delayed_sip');
}

/**
 * The rules' signals on recent series, by the series and the rules' sources: pure functions of both, and the market
 * layer hands out one series per symbol, bars version and period while it keeps them, never changed once made (new
 * bars are a new version, so a new series). Runs differing only in capital or sizing reuse the signals; the replay
 * only reads them.
 */
const signalsBySeries = new WeakMap<BarSeries, Map<string, (Uint8Array | null)[]>>();
const KEPT_SIGNALS_PER_SERIES = 16;

export function signalsOf(series: BarSeries, entryRule: CompiledRule | null, exitRule: CompiledRule | null): (Uint8Array | null)[] {
  let bySources = signalsBySeries.get(series);
  if (bySources === undefined) {
    bySources = new Map();
    signalsBySeries.set(series, bySources);
  }
  const key = JSON.stringify([entryRule?.source ?? null, exitRule?.source ?? null]);
  let signals = bySources.get(key);
  if (signals === undefined) {
    signals = evaluateRules(series, [entryRule, exitRule]);
    if (bySources.size >= KEPT_SIGNALS_PER_SERIES) bySources.clear();
    bySources.set(key, signals);
  }
  return signals;
}

export function requestedSymbols(symbols: readonly string[]): string[] {
  if (symbols.length === 0) {
    throw new BadRequest('no_symbols', 'List at least one symbol in "symbols", or leave it out to use the strategy\'s allowlist.', [{ field: 'body.symbols', message: 'is empty' }]);
  }
  const seen = new Set<string>();
  for (const symbol of symbols) {
    assertTicker(symbol);
    if (seen.has(symbol)) throw new BadRequest('duplicate_symbol', `Symbol ${symbol} is listed twice; list each symbol once.`, [{ field: 'body.symbols', message: `${symbol} twice` }]);
    seen.add(symbol);
  }
  return [...seen];
}

/** The symbols to replay, sorted: the requested ones (each within the allowlist, if there is one), else the allowlist's. */
export function symbolsToReplay(allowlist: string[] | null, requested: readonly string[] | null): string[] {
  if (requested === null) {
    if (allowlist === null || allowlist.length === 0) {
      throw new BadRequest('symbols_required', 'This strategy has no entry_symbol_allowlist: name the symbols to replay in "symbols".', [{ field: 'body.symbols', message: 'is required for this strategy' }]);
    }
    if (allowlist.length > MAX_SYMBOLS) {
      throw new BadRequest('too_many_symbols', `The strategy allows ${allowlist.length} symbols; name at most ${MAX_SYMBOLS} of them in "symbols".`, [{ field: 'body.symbols', message: 'is required for this strategy' }]);
    }
    return allowlist.sort();
  }
  if (allowlist !== null) {
    const outside = requested.filter((s) => !allowlist.includes(s));
    if (outside.length > 0) {
      throw new Unprocessable(
        'symbol_not_allowed',
        `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not in this strategy's entry_symbol_allowlist (${allowlist.join(', ')}).`,
        outside.map((symbol) => ({ field: 'body.symbols', message: `${symbol} is not allowed`, symbol })),
      );
    }
  }
  return [...requested].sort();
}

/** Rules compiled recently, by their source: a compiled rule is immutable and a pure function of its source. */
const compiledRules = new Map<string, CompiledRule>();
const KEPT_COMPILED_RULES = 256;

/** A stored rule that no longer compiles (the grammar changed under it) is the strategy's problem, not the request's. */
export function compiled(field: 'entry_rule' | 'exit_rule', source: string | null): CompiledRule | null {
  if (source === null || source.trim() === '') return null;
  const known = compiledRules.get(source);
  if (known !== undefined) return known;
  try {
    const rule = compileRule(source);
    if (compiledRules.size >= KEPT_COMPILED_RULES) compiledRules.clear();
    compiledRules.set(source, rule);
    return rule;
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    throw new Unprocessable('invalid_rule', `The strategy's ${field} does not compile: ${error.message}. Edit the strategy and run again.`, [{ field, message: error.message }]);
  }
}

export async function barsOf(marketData: MarketData, symbol: string, period: Period) {
  const noBars = () =>
    new Unprocessable('no_bars', `${symbol} has no bars ${describePeriod(period)}.`, [{ field: 'body.symbols', message: `${symbol} has no bars`, symbol }]);
  try {
    const { series, version } = await marketData.barsFor(symbol, period.from, period.to, 'delayed_sip');
    if (series.dates.length === 0) throw noBars();
    return { series, version };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unknown_symbol') throw noBars();
    throw error;
  }
}
