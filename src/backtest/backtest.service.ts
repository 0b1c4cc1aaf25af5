import { BadRequest, NotFound, Unprocessable } from '../platform/errors.js';
import { assertTicker, dataFeedOf, requestedPeriod, type DataFeed, type Period } from '../market/market-terms.js';
import type { BarsInPeriod, MarketData } from '../market/market-data.service.js';
import type { BarSeries } from '../market/bar-series.js';
import type { ResponseCache } from './response-cache.js';
import { backtestBodyBytes } from './backtest-body.js';
import { barTimestamp, findTemplate, resolveTemplateParameters, runTemplateBacktest, unfilledEntries, type StrategyTemplate } from '../engine/index.js';
import { compareTemplates, comparisonResult, legacyBacktestHead, partlyUnfilledSignals, unfilledSignals, type ComparisonResult, type LegacyBacktestResult } from './backtest-result.js';
import { refusedByEngine } from './engine-refusal.js';
import type { BacktestRequest, CompareRequest } from './backtest.schema.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { benchmarkFor } from './benchmark-bars.js';
import { executionKey, requestedExecution } from './execution-request.js';
import { backtestExtras, benchmarkBlock, executionEcho } from './execution-result.js';
import { reportKey, roundedReport, templateRoundTrips } from './report-result.js';

export interface BacktestDeps {
  readonly marketData: MarketData;
  /** Serialized bodies by request and bars version (results are deterministic, so a hit is exact). */
  readonly responses: ResponseCache;
}

/**
 * POST /api/backtest: one template over one symbol's bars, as the JSON body `serialize` (the route's
 * response schema) makes of it. Validates everything before reading bars.
 */
export async function legacyBacktestBody(
  deps: BacktestDeps,
  request: BacktestRequest,
  serialize: (result: LegacyBacktestResult) => string,
): Promise<Buffer> {
  const template = templateById(request.strategy);
  const params = refusedByEngine(() => resolveTemplateParameters(template, request.strategy_params ?? []));
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeedOf(request.data_feed);
  assertTicker(request.symbol);
  const execution = requestedExecution(request);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  const benchmark = execution.named ? await benchmarkFor(deps.marketData, execution.benchmark ?? request.symbol, { symbol: request.symbol, series: bars, version }, feed) : null;
  // Everything the body depends on: the bars (symbol, version, period), the run's inputs and the benchmark's bars.
  const key = JSON.stringify(['backtest', request.symbol, version, period.from, period.to, feed, template.id, params, request.initial_capital, ...executionKey(execution, benchmark), ...reportKey(request)]);
  return deps.responses.getOrCreate(key, async () => {
    const benchmarked = benchmark && refusedByEngine(() => benchmarkRun(benchmark.symbol, bars.dates, benchmark.bars, request.initial_capital));
    const run = runTemplateBacktest(bars, template, params, request.initial_capital, execution.settings);
    const head: LegacyBacktestResult = legacyBacktestHead(
      {
        symbol: request.symbol,
        strategyName: template.name,
        ...usedPeriod(bars),
        initialCapital: request.initial_capital,
        dataFeed: feed,
        dates: bars.dates,
        run,
      },
      execution.named,
    );
    const unfilled = run.trades.length === 0 ? unfilledEntries(bars, template.id, params) : undefined;
    const settings = execution.named ? execution.settings : undefined;
    if (unfilled) head.unfilled_signals = unfilledSignals(request.symbol, bars, unfilled, request.initial_capital, settings);
    else if (settings && run.unfilled_entries > 0) head.unfilled_signals = partlyUnfilledSignals(run.unfilled_entries);
    if (benchmark && benchmarked) Object.assign(head, backtestExtras(execution.settings, run.costs_paid, run.equity, benchmark.symbol, benchmarked));
    if (request.report) head.report = roundedReport({ dates: bars.dates, equity: run.equity, initialCapital: request.initial_capital, trades: templateRoundTrips(run.trades) });
    return backtestBodyBytes(head, { dates: bars.dates, equity: run.equity, drawdowns: run.drawdowns }, serialize);
  });
}

/**
 * POST /api/compare-strategies: several templates, each with its defaults, over one shared set of dates,
 * as the JSON body `serialize` (the route's response schema) makes of it; cached like a backtest body.
 */
export async function comparisonBody(
  deps: BacktestDeps,
  request: CompareRequest,
  serialize: (result: ComparisonResult) => string,
): Promise<Buffer> {
  if (request.strategies.length === 0) {
    throw new BadRequest('no_strategies', 'List at least one template id in "strategies" (GET /api/templates).', [{ field: 'body.strategies', message: 'is empty' }]);
  }
  const seen = new Set<string>();
  for (const id of request.strategies) {
    if (seen.has(id)) throw new BadRequest('duplicate_strategy', `Strategy "${id}" is listed twice; list each template once.`, [{ field: 'body.strategies', message: `"${id}" twice` }]);
    seen.add(id);
  }
  const templates = request.strategies.map(templateById);
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeedOf(request.data_feed);
  assertTicker(request.symbol);
  const execution = requestedExecution(request);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  const benchmark = execution.named ? await benchmarkFor(deps.marketData, execution.benchmark ?? request.symbol, { symbol: request.symbol, series: bars, version }, feed) : null;
  const key = JSON.stringify(['compare', request.symbol, version, period.from, period.to, feed, request.strategies, request.initial_capital, ...executionKey(execution, benchmark)]);
  return deps.responses.getOrCreate(key, async () => {
    const benchmarked = benchmark && refusedByEngine(() => benchmarkRun(benchmark.symbol, bars.dates, benchmark.bars, request.initial_capital));
    const result = comparisonResult({
      symbol: request.symbol,
      ...usedPeriod(bars),
      initialCapital: request.initial_capital,
      dataFeed: feed,
      dates: bars.dates,
      strategies: compareTemplates(bars, templates, request.initial_capital, benchmarked ? { settings: execution.settings, benchmark: benchmarked } : undefined),
    });
    if (benchmark && benchmarked) Object.assign(result, executionEcho(execution.settings), { benchmark: benchmarkBlock(benchmark.symbol, benchmarked) });
    return serialize(result);
  });
}

/** The template a request names; 404 `unknown_strategy`. */
export function templateById(id: string): StrategyTemplate {
  const template = findTemplate(id);
  if (!template) throw new NotFound('unknown_strategy', `No strategy template "${id}". GET /api/templates lists them.`);
  return template;
}

/** The bars of the requested period; 422 `no_bars` when there are none. */
export async function barsInPeriod(marketData: MarketData, symbol: string, period: Period, feed: DataFeed): Promise<BarsInPeriod> {
  const bars = await marketData.barsFor(symbol, period.from, period.to, feed);
  if (bars.series.dates.length === 0) {
    throw new Unprocessable('no_bars', `${symbol} has no bars from ${period.from} to ${period.to}.`);
  }
  return bars;
}

/** The response's start_date/end_date: the first and last bar actually used, as UTC midnight timestamps. */
export function usedPeriod(bars: BarSeries): { startDate: string; endDate: string } {
  return { startDate: barTimestamp(bars.dates[0]!), endDate: barTimestamp(bars.dates.at(-1)!) };
}
