import YahooFinance from 'yahoo-finance2';
import type { ChartResultArray } from 'yahoo-finance2/modules/chart';
import type { SearchResult } from 'yahoo-finance2/modules/search';
import type { FastifyBaseLogger } from 'fastify';
import type { YahooConfig } from '../platform/config.js';
import { DAY, type Clock } from '../platform/clock.js';
import { AppError, NotFound, ServiceUnavailable } from '../platform/errors.js';
import type { Bar } from './bar-series.js';
import { adjustedBy } from './csv-bars.js';
import type { ProviderPrice, ProviderSymbol } from './market-data-provider.js';
import { isTicker, nextDay } from './market-terms.js';
import { BadGateway, GatewayTimeout } from './provider-errors.js';

export interface YahooDeps {
  readonly config: YahooConfig;
  readonly clock: Clock;
  /** Where the library's own remarks go (at debug level: its errors reach us as thrown errors). */
  readonly logger: Pick<FastifyBaseLogger, 'debug'>;
}

/** Daily bars of `symbol` dated `from` to `to` (`YYYY-MM-DD`, inclusive), adjusted for splits and dividends. */
export type YahooDailyBars = (symbol: string, from: string, to: string) => Promise<Bar[]>;

/**
 * Yahoo Finance daily bars through yahoo-finance2's `chart()` (which needs no cookie or crumb). The library builds
 * the request and checks the answer's shape; its `fetch` option is our transport, which sends the request to
 * `YAHOO_BASE_URL` instead of Yahoo's host, bounds it by `YAHOO_TIMEOUT_MS` and turns Yahoo's HTTP statuses into
 * our errors.
 */
export function createYahooDailyBars(deps: YahooDeps): YahooDailyBars {
  const client = yahooClient(deps.config, deps.logger);
  return async (symbol, from, to) => {
    let result: ChartResultArray;
    try {
      // period2 is exclusive and a session is stamped at its opening time: the day after `to` takes in `to`.
      result = await client.chart(symbol, { period1: from, period2: nextDay(to), interval: '1d', events: 'div|split' });
    } catch (error) {
      throw providerError(error, deps.config.timeoutMs);
    }
    return completedSessions(result, deps.clock.now());
  };
}

/**
 * The latest price of a symbol and when it was made: the chart's `meta.regularMarketPrice` and `regularMarketTime`
 * (the meta carries them whatever the period: the last week's daily bars keep the answer small). The chart needs no
 * cookie or crumb, unlike `quote()`. Throws our provider errors, as the bars do.
 */
export function createYahooLatestPrice(deps: YahooDeps): (symbol: string) => Promise<ProviderPrice> {
  const client = yahooClient(deps.config, deps.logger);
  return async (symbol) => {
    const now = deps.clock.now();
    let result: ChartResultArray;
    try {
      const from = new Date(now.getTime() - 7 * DAY).toISOString().slice(0, 10);
      result = await client.chart(symbol, { period1: from, period2: nextDay(now.toISOString().slice(0, 10)), interval: '1d' });
    } catch (error) {
      throw providerError(error, deps.config.timeoutMs);
    }
    const { regularMarketPrice: price, regularMarketTime: at } = result.meta;
    if (!(Number.isFinite(price) && price > 0) || Number.isNaN(at.getTime())) {
      throw new BadGateway('provider_bad_response', `Yahoo Finance answered no usable latest price for ${symbol}.`);
    }
    return { price, at: at.toISOString() };
  };
}

/** Tickers Yahoo knows matching `query` (a ticker or a name, as Yahoo's own search box takes it), best first. */
export type YahooSearch = (query: string) => Promise<ProviderSymbol[]>;

/** A search answers a person typing: it waits at most this long, whatever `YAHOO_TIMEOUT_MS` allows a chart. */
const SEARCH_TIMEOUT_MS = 3000;
/** What a search offers: instruments with daily bars like a stock's (no options, futures, currencies or crypto). */
const OFFERED_TYPES: ReadonlySet<unknown> = new Set(['EQUITY', 'ETF', 'INDEX', 'MUTUALFUND']);
const SEARCH_OPTIONS = { quotesCount: 10, newsCount: 0, enableFuzzyQuery: false, enableCb: false, enableNavLinks: false } as const;

/**
 * Yahoo Finance's symbol search through yahoo-finance2's `search()` (`/v1/finance/search`, no cookie or crumb either):
 * the instruments it offers whose ticker we accept, named by Yahoo's long name (else its short name). Throws our
 * provider errors, as the chart does.
 */
export function createYahooSearch(deps: YahooDeps): YahooSearch {
  const timeoutMs = Math.min(deps.config.timeoutMs, SEARCH_TIMEOUT_MS);
  const client = yahooClient({ ...deps.config, timeoutMs }, deps.logger);
  return async (query) => {
    let result: SearchResult;
    try {
      result = await client.search(query, SEARCH_OPTIONS);
    } catch (error) {
      throw providerError(error, timeoutMs);
    }
    return result.quotes.flatMap((quote) => {
      if (quote.isYahooFinance !== true || !OFFERED_TYPES.has(quote.quoteType) || !isTicker(quote.symbol)) return [];
      return [{ symbol: quote.symbol, name: quote.longname ?? quote.shortname ?? quote.symbol }];
    });
  };
}

function yahooClient(config: YahooConfig, logger: Pick<FastifyBaseLogger, 'debug'>) {
  return new YahooFinance({
    fetch: transport(config),
    // After a shape error it would ask registry.npmjs.org for a newer version: never call out beyond YAHOO_BASE_URL.
    versionCheck: false,
    validation: { logErrors: false },
    logger: quietLogger(logger),
  });
}

/** A `fetch` for the library: Yahoo's URL re-pointed at `YAHOO_BASE_URL`; statuses other than 200 become our errors. */
function transport(config: YahooConfig): typeof fetch {
  return async (input, init) => {
    const asked = new URL(input instanceof Request ? input.url : String(input));
    let response: Response;
    try {
      response = await fetch(`${config.baseUrl}${asked.pathname}${asked.search}`, { ...init, signal: AbortSignal.timeout(config.timeoutMs) });
    } catch (error) {
      throw providerError(error, config.timeoutMs);
    }
    if (response.ok) return response;
    await response.body?.cancel();
    if (response.status === 404) {
      const symbol = decodeURIComponent(asked.pathname.split('/').at(-1) ?? '');
      throw new NotFound('unknown_symbol', `We have no prices for ${symbol}, and Yahoo Finance does not know it.`, [
        { field: 'body.symbol', message: 'is not a ticker Yahoo Finance knows; GET /api/symbols lists the symbols we have' },
      ]);
    }
    if (response.status === 429) throw new ServiceUnavailable('provider_rate_limited', 'Yahoo Finance is rate-limiting us; try again in a minute.');
    throw new BadGateway('provider_error', `Yahoo Finance answered HTTP ${response.status}.`);
  };
}

function providerError(error: unknown, timeoutMs: number): Error {
  if (error instanceof AppError) return error;
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new GatewayTimeout('provider_timeout', `Yahoo Finance did not answer within ${timeoutMs} ms.`);
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return new BadGateway('provider_unreachable', 'Yahoo Finance cannot be reached.');
  }
  return new BadGateway('provider_bad_response', `Yahoo Finance answered in an unexpected shape: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
}

/**
 * The chart's daily quotes as our bars, adjusted by their adjusted close (as a CSV with `Adj Close` is). Days Yahoo
 * answers with null prices are skipped, as the CSV import skips its `null` rows. A session still trading (today,
 * before its close) is left out: it would be stored half-made and never fetched again.
 */
function completedSessions(result: ChartResultArray, now: Date): Bar[] {
  const offsetMs = result.meta.gmtoffset * 1000;
  const today = localDate(now.getTime(), offsetMs);
  const sessionOver = now.getTime() >= result.meta.currentTradingPeriod.regular.end.getTime();
  const bars: Bar[] = [];
  for (const quote of result.quotes) {
    const { open, high, low, close, volume, adjclose } = quote;
    if (open === null || high === null || low === null || close === null) continue;
    const date = localDate(quote.date.getTime(), offsetMs);
    if (date > today || (date === today && !sessionOver)) continue;
    if (![open, high, low, close].every((price) => Number.isFinite(price) && price > 0)) {
      throw new BadGateway('provider_bad_response', `Yahoo Finance answered a price that is not positive on ${date}.`);
    }
    const bar = { date, open, high, low, close, volume: volume ?? 0 };
    bars.push(typeof adjclose === 'number' && adjclose > 0 ? adjustedBy(bar, adjclose) : bar);
  }
  return bars;
}

/** The calendar date at the exchange (`gmtoffset` from the chart's meta) of an instant. */
function localDate(epochMs: number, offsetMs: number): string {
  return new Date(epochMs + offsetMs).toISOString().slice(0, 10);
}

function quietLogger(logger: Pick<FastifyBaseLogger, 'debug'>) {
  const log = (...args: unknown[]) => logger.debug({ yahooFinance2: args.map(String).join(' ') }, 'yahoo-finance2 says');
  return { info: log, warn: log, error: log, debug: log, dir: log };
}
