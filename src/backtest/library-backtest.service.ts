/**
 * POST /api/backtest/run: replays one of the caller's library strategies over stored daily bars
 * (docs/backtesting.md "Library backtest"). Checks the request, reads the strategy and the bars, evaluates the
 * strategy's rules per symbol, and hands the rest to the pure replay in ./library/.
 */
import type { Db } from '../platform/db/database.js';
import { AppError, BadRequest, Unprocessable } from '../platform/errors.js';
import { assertTicker, describePeriod, optionalPeriod, type Period } from '../market/market-terms.js';
import type { MarketData } from '../market/market-data.service.js';
import type { BarSeries } from '../market/bar-series.js';
import type { ResponseCache } from './response-cache.js';
import { loadOwnStrategy } from '../strategies/strategies.service.js';
import { allowedSymbols, positionSideOf, type StrategyPolicy } from '../strategies/strategy-policy.js';
import { compileRule, evaluateRules, RuleError, type CompiledRule } from '../strategies/grammar/index.js';
import { replayStrategyColumns } from '../engine/replay/replay.js';
import { libraryBacktestHead, type LibraryBacktestBody } from './library-backtest-result.js';
import { backtestBodyBytes } from './backtest-body.js';
import type { PositionSide, ReplayStrategy, SymbolReplayInput } from '../engine/replay/types.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { benchmarkBars, type LoadedBenchmark } from './benchmark-bars.js';
import { executionKey, libraryExits, requestedExecution } from './execution-request.js';
import { backtestExtras } from './execution-result.js';
import { refusedByEngine } from './engine-refusal.js';
import { reportKey, roundedReport } from './report-result.js';
import { DEFAULT_STARTING_CAPITAL, MAX_SYMBOLS, type LibraryBacktestRequest } from './library-backtest.schema.js';

export interface LibraryBacktestDeps {
  readonly db: Db;
  readonly marketData: MarketData;
  /** Serialized bodies by everything they depend on (results are deterministic, so a hit is exact). */
  readonly responses: ResponseCache;
}

/**
 * POST /api/backtest/run: the caller's strategy `request.strategy_id` replayed, as the JSON body `serialize` (the
 * route's response schema) makes of it. Throws 400, 404 `not_found` or 422 as documented. The body is a pure
 * function of the strategy's replayed fields, the symbols' bars (named by their `bars_version`), the period and the
 * capital, so it is kept in `deps.responses` under a key holding all of them: a repeated run is sent from memory,
 * and a changed strategy or new bars simply make a new key.
 */
export async function libraryBacktestBody(
  deps: LibraryBacktestDeps,
  userId: string,
  request: LibraryBacktestRequest,
  serialize: (result: LibraryBacktestBody) => string,
): Promise<Buffer> {
  const period = optionalPeriod(request.start_date, request.end_date);
  const requested = request.symbols === undefined ? null : requestedSymbols(request.symbols);
  const execution = requestedExecution(request);
  const strategy = await loadOwnStrategy(deps.db, { userId }, request.strategy_id);
  // The strategy's own exits; the request's fill in only those the strategy leaves null (docs/backtesting.md).
  const exits = libraryExits(
    { stopLossPct: strategy.exit_stop_loss_pct, profitTargetPct: strategy.exit_profit_target_pct, trailingStopPct: strategy.exit_trailing_stop_pct },
    execution.settings.exits,
  );
  const replay: ReplayStrategy = {
    side: replaySide(strategy),
    maxPositionSize: strategy.entry_max_position_size,
    profitTargetPct: exits.take_profit_pct,
    stopLossPct: exits.stop_loss_pct,
    trailingStopPct: exits.trailing_stop_pct,
  };
  const symbols = symbolsToReplay(allowedSymbols(strategy), requested);
  const entryRule = compiled('entry_rule', strategy.entry_rule);
  const exitRule = compiled('exit_rule', strategy.exit_rule);
  const bars: { symbol: string; series: BarSeries; version: number }[] = [];
  for (const symbol of symbols) bars.push({ symbol, ...(await barsOf(deps.marketData, symbol, period)) });
  const capital = request.starting_capital ?? DEFAULT_STARTING_CAPITAL;
  const benchmark = execution.named ? await libraryBenchmark(deps.marketData, execution.benchmark, bars) : null;
  // Everything the body depends on. The id is in the body; ownership was checked above, before any lookup.
  const key = JSON.stringify([
    'library',
    Number(strategy.id),
    replay,
    strategy.entry_rule,
    strategy.exit_rule,
    bars.map((b) => [b.symbol, b.version]),
    period.from,
    period.to,
    capital,
    ...executionKey(execution, benchmark),
    ...reportKey(request),
  ]);
  return deps.responses.getOrCreate(key, async () => {
    const inputs: SymbolReplayInput[] = bars.map(({ symbol, series }) => {
      const [entry, exit] = signalsOf(series, entryRule, exitRule);
      return { symbol, bars: series, entry: entry ?? null, exit: exit ?? null };
    });
    const result = replayStrategyColumns(inputs, replay, capital, execution.named ? { costs: execution.settings.costs, sizing: execution.settings.sizing } : undefined);
    // One symbol's timeline is its bars' dates (the replay returns a copy): the bars' own array is the one whose JSON is memoized.
    const dates = inputs.length === 1 ? inputs[0]!.bars.dates : result.dates;
    const series = { dates, equity: result.equity, drawdowns: result.drawdowns };
    const head = libraryBacktestHead(Number(strategy.id), result, execution.named);
    if (benchmark) {
      const benchmarked = refusedByEngine(() => benchmarkRun(benchmark.symbol, result.dates, benchmark.bars, capital));
      Object.assign(head, backtestExtras({ ...execution.settings, exits }, result.costs_paid, result.equity, benchmark.symbol, benchmarked));
    }
    if (request.report) head.report = roundedReport({ dates, equity: result.equity, initialCapital: capital, trades: result.trades });
    return backtestBodyBytes(head, series, serialize);
  });
}

/**
 * The library run's benchmark: the one the request names, else the first replayed symbol (sorted) with a bar on the
 * timeline's first date, so the default always covers the timeline. A replayed symbol is valued on the bars already
 * read; any other is read like a legacy backtest's benchmark (benchmark-bars.ts).
 */
async function libraryBenchmark(
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

function signalsOf(series: BarSeries, entryRule: CompiledRule | null, exitRule: CompiledRule | null): (Uint8Array | null)[] {
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

/** The strategy policy's position side; options types are refused (422 `unsupported_strategy_type`). */
function replaySide(strategy: Pick<StrategyPolicy, 'strategy_type' | 'entry_allowed_sides'>): PositionSide {
  const side = positionSideOf(strategy);
  if (side === null) {
    throw new Unprocessable(
      'unsupported_strategy_type',
      `Strategy type "${strategy.strategy_type}" cannot be backtested yet: there is no options data. Equity strategies (equity_long, equity_short, custom) can.`,
    );
  }
  return side;
}

function requestedSymbols(symbols: readonly string[]): string[] {
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
function symbolsToReplay(allowlist: string[] | null, requested: readonly string[] | null): string[] {
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
function compiled(field: 'entry_rule' | 'exit_rule', source: string | null): CompiledRule | null {
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

async function barsOf(marketData: MarketData, symbol: string, period: Period) {
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

