import { BadRequest, NotFound, Unprocessable } from '../platform/errors.js';
import { DATA_FEEDS, type DataFeed } from '../market/alpaca.provider.js';
import { assertTicker } from '../market/bar-store.service.js';
import { isIsoDate } from '../market/csv-bars.js';
import type { BarsInPeriod, MarketData } from '../market/market-data.service.js';
import type { BarSeries } from '../market/bar-series.js';
import type { ResponseCache } from './response-cache.js';
import { backtestResultJson } from './backtest-body.js';
import {
  barTimestamp,
  comparisonResult,
  compareTemplates,
  findTemplate,
  legacyBacktestResult,
  resolveTemplateParameters,
  runTemplateBacktest,
  type ComparisonResult,
  type LegacyBacktestResult,
  type StrategyTemplate,
} from './engine/index.js';
import type { BacktestRequest, CompareRequest } from './backtest.schema.js';

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

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
  const params = resolveTemplateParameters(template, request.strategy_params ?? []);
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeed(request.data_feed);
  assertTicker(request.symbol);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  // Everything the body depends on: the bars (symbol, version, period) and the run's inputs.
  const key = JSON.stringify(['backtest', request.symbol, version, period.from, period.to, feed, template.id, params, request.initial_capital]);
  return deps.responses.getOrCreate(key, async () => {
    const run = runTemplateBacktest(bars, template, params, request.initial_capital);
    const result = legacyBacktestResult({
      symbol: request.symbol,
      strategyName: template.name,
      ...usedPeriod(bars),
      initialCapital: request.initial_capital,
      dataFeed: feed,
      dates: bars.dates,
      run,
    });
    return backtestResultJson(result, serialize);
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
    throw new BadRequest('List at least one template id in "strategies" (GET /api/templates).', [{ field: 'body.strategies', message: 'is empty' }], 'no_strategies');
  }
  const seen = new Set<string>();
  for (const id of request.strategies) {
    if (seen.has(id)) throw new BadRequest(`Strategy "${id}" is listed twice; list each template once.`, [{ field: 'body.strategies', message: `"${id}" twice` }], 'duplicate_strategy');
    seen.add(id);
  }
  const templates = request.strategies.map(templateById);
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeed(request.data_feed);
  assertTicker(request.symbol);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  const key = JSON.stringify(['compare', request.symbol, version, period.from, period.to, feed, request.strategies, request.initial_capital]);
  return deps.responses.getOrCreate(key, async () =>
    serialize(
      comparisonResult({
        symbol: request.symbol,
        ...usedPeriod(bars),
        initialCapital: request.initial_capital,
        dataFeed: feed,
        dates: bars.dates,
        strategies: compareTemplates(bars, templates, request.initial_capital),
      }),
    ),
  );
}

function templateById(id: string): StrategyTemplate {
  const template = findTemplate(id);
  if (!template) throw new NotFound(`No strategy template "${id}". GET /api/templates lists them.`, 'unknown_strategy');
  return template;
}

interface Period {
  readonly from: string;
  readonly to: string;
}

/** The UTC calendar days the request names; each bound is a `YYYY-MM-DD` date or an ISO 8601 timestamp. */
export function requestedPeriod(start: string, end: string): Period {
  const from = utcDay('start_date', start);
  const to = utcDay('end_date', end);
  if (to < from) {
    throw new BadRequest(`end_date (${end}) is before start_date (${start}).`, [{ field: 'body.end_date', message: 'is before start_date' }], 'invalid_period');
  }
  return { from, to };
}

function utcDay(field: string, text: string): string {
  if (isIsoDate(text)) return text;
  const match = TIMESTAMP.exec(text);
  if (match && isIsoDate(match[1]!)) {
    // An offset can carry a timestamp past year 9999 (`9999-12-31T23:59-23:59`), out of the date format.
    const day = new Date(Date.parse(text)).toISOString().slice(0, 10);
    if (isIsoDate(day)) return day;
  }
  const message = `${field} "${text}" is not an ISO 8601 date: use YYYY-MM-DD or a UTC timestamp such as 2020-01-31T00:00:00Z.`;
  throw new BadRequest(message, [{ field: `body.${field}`, message: 'is not an ISO 8601 date' }], 'invalid_date');
}

function dataFeed(value: string | undefined): DataFeed {
  const feed = value ?? 'delayed_sip';
  if (!(DATA_FEEDS as readonly string[]).includes(feed)) {
    throw new BadRequest(`data_feed "${feed}" is not known; use ${DATA_FEEDS.map((f) => `"${f}"`).join(' or ')}.`, [{ field: 'body.data_feed', message: 'is not a known feed' }], 'unknown_data_feed');
  }
  return feed as DataFeed;
}

async function barsInPeriod(marketData: MarketData, symbol: string, period: Period, feed: DataFeed): Promise<BarsInPeriod> {
  const bars = await marketData.barsFor(symbol, period.from, period.to, feed);
  if (bars.series.dates.length === 0) {
    throw new Unprocessable('no_bars', `${symbol} has no bars from ${period.from} to ${period.to}.`);
  }
  return bars;
}

/** The response's start_date/end_date: the first and last bar actually used, as UTC midnight timestamps. */
function usedPeriod(bars: BarSeries): { startDate: string; endDate: string } {
  return { startDate: barTimestamp(bars.dates[0]!), endDate: barTimestamp(bars.dates.at(-1)!) };
}
