/**
 * POST /api/backtest/run: replays one of the caller's library strategies over stored daily bars
 * (docs/backtesting.md "Library backtest"). Checks the request, reads the strategy and the bars, evaluates the
 * strategy's rules per symbol, and hands the rest to the pure replay in ./library/.
 */
import type { Db } from '../platform/db/database.js';
import { Unprocessable } from '../platform/errors.js';
import { optionalPeriod } from '../market/market-terms.js';
import type { MarketData } from '../market/market-data.service.js';
import type { BarSeries } from '../market/bar-series.js';
import type { ResponseCache } from './response-cache.js';
import { loadOwnStrategy } from '../strategies/strategies.service.js';
import { allowedSymbols, positionSideOf, type StrategyPolicy } from '../strategies/strategy-policy.js';
import { isOptionsStrategyType } from '../strategies/options-spec.js';
import { replayStrategyColumns } from '../engine/replay/replay.js';
import { libraryBacktestHead, type LibraryBacktestBody } from './library-backtest-result.js';
import { backtestBodyBytes } from './backtest-body.js';
import type { PositionSide, ReplayStrategy, SymbolReplayInput } from '../engine/replay/types.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { executionKey, libraryExits, requestedExecution } from './execution-request.js';
import { backtestExtras } from './execution-result.js';
import { refusedByEngine } from './engine-refusal.js';
import { reportKey, roundedReport } from './report-result.js';
import { barsOf, compiled, libraryBenchmark, requestedSymbols, signalsOf, symbolsToReplay } from './library-inputs.js';
import { optionsBacktestBody } from './options-backtest.js';
import type { OptionsBacktestBody } from './options-backtest-result.js';
import { DEFAULT_STARTING_CAPITAL, type LibraryBacktestRequest } from './library-backtest.schema.js';

export interface LibraryBacktestDeps {
  readonly db: Db;
  readonly marketData: MarketData;
  /** Serialized bodies by everything they depend on (results are deterministic, so a hit is exact). */
  readonly responses: ResponseCache;
  /** The risk-free rate the options replay prices with (config OPTIONS_RISK_FREE_RATE). */
  readonly optionsRiskFreeRate: number;
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
  serialize: (result: LibraryBacktestBody | OptionsBacktestBody) => string,
): Promise<Buffer> {
  const period = optionalPeriod(request.start_date, request.end_date);
  const requested = request.symbols === undefined ? null : requestedSymbols(request.symbols);
  const execution = requestedExecution(request);
  const strategy = await loadOwnStrategy(deps.db, { userId }, request.strategy_id);
  if (isOptionsStrategyType(strategy.strategy_type)) return optionsBacktestBody(deps, strategy, { request, period, requested, execution }, serialize);
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

/** The strategy policy's position side (the options types never get here: options-backtest.ts replays them). */
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
