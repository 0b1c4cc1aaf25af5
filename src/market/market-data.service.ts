import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { Forbidden, NotFound } from '../platform/errors.js';
import { FEED_DELAY_MS } from './alpaca.provider.js';
import type { MarketDataProvider } from './market-data-provider.js';
import { nextDay, type DataFeed } from './market-terms.js';
import type { BarSeries } from './bar-series.js';
import { BarSeriesCache, type CachedSeries } from './bar-series-cache.js';
import { storeBars, type BarsStoredListener } from './bar-store.service.js';
import { priceNowOf, type PriceNow, type PriceNowOptions } from './price-now.js';

/** Where a first fetch of a symbol unknown to the store starts: the provider returns what it has from there. */
export const PROVIDER_HISTORY_START = '1990-01-01';

export interface MarketDataDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** `null`: only stored bars are served (`MARKET_DATA_PROVIDER=none`). */
  readonly provider: MarketDataProvider | null;
  /** Called after fetched bars changed the store. */
  readonly onBarsStored?: BarsStoredListener;
}

export interface BarsInPeriod {
  readonly series: BarSeries;
  /** The symbol's `bars_version` the series was read at: anything computed from it may be cached under it. */
  readonly version: number;
}

export interface MarketData {
  /**
   * The stored bars of `symbol` dated `from` to `to` (`YYYY-MM-DD`, inclusive), fetched from the provider
   * first when it is configured and the store lacks them: a symbol it does not hold, or the newest days of one it
   * filled (a symbol from the demo or an import is served as stored). Throws 404 `unknown_symbol`, 403
   * `feed_not_entitled`, or a provider error (502/503/504). The series may be empty.
   */
  barsFor(symbol: string, from: string, to: string, feed: DataFeed): Promise<BarsInPeriod>;
  /** The latest price the service knows of `symbol` (price-now.ts `priceNowOf`). */
  priceNow(symbol: string, options?: PriceNowOptions): Promise<PriceNow | null>;
  readonly cache: BarSeriesCache;
  /** The provider it fetches from (`null`: stored bars only); the symbol search and the feed list ask it too. */
  readonly provider: MarketDataProvider | null;
}

export function createMarketData(deps: MarketDataDeps): MarketData {
  const cache = new BarSeriesCache(deps.db);
  /** When this process last asked the provider for a symbol's newest bars (delayed feed): at most every 15 min. */
  const tailCheckedAt = new Map<string, number>();
  /** The provider fetch under way for a symbol: concurrent requests for it wait for this one instead of asking again. */
  const fetching = new Map<string, Promise<CachedSeries | undefined>>();

  function fetchAndStore(symbol: string, from: string, to: string, feed: DataFeed): Promise<CachedSeries | undefined> {
    const running = fetching.get(symbol);
    if (running !== undefined) return running;
    const fetch = fetchAndStoreNow(symbol, from, to, feed).finally(() => fetching.delete(symbol));
    fetching.set(symbol, fetch);
    return fetch;
  }

  async function fetchAndStoreNow(symbol: string, from: string, to: string, feed: DataFeed): Promise<CachedSeries | undefined> {
    const bars = await deps.provider!.dailyBars(symbol, from, to, feed);
    tailCheckedAt.set(symbol, deps.clock.now().getTime());
    if (bars.length > 0) {
      const { changed } = await storeBars(deps.db, deps.clock, { symbol, bars, source: deps.provider!.source });
      if (changed > 0) {
        deps.logger.info({ symbol, changed, from, to }, 'bars fetched from the market-data provider and stored');
        await notifyStored(deps, symbol);
      }
    }
    return cache.get(symbol);
  }

  async function barsFor(symbol: string, from: string, to: string, feed: DataFeed): Promise<BarsInPeriod> {
    if (feed === 'sip' && deps.provider?.realTime !== true) {
      throw new Forbidden('feed_not_entitled', 'Real-time data (data_feed "sip") needs a market-data subscription, and this server has none; use "delayed_sip".');
    }
    let cached = await cache.get(symbol);
    // A provider fills a symbol the store lacks and refreshes only the symbols it filled: the demo's and imported
    // symbols are served as stored, so the demo SPX is never extended with whatever the provider calls SPX.
    if (deps.provider !== null && (cached === undefined || cached.source === deps.provider.source)) {
      const last = cached?.series.dates.at(-1);
      if (last === undefined) {
        cached = await fetchAndStore(symbol, from < PROVIDER_HISTORY_START ? from : PROVIDER_HISTORY_START, to, feed);
      } else if (last < to && (feed === 'sip' || isTailStale(symbol))) {
        try {
          cached = await fetchAndStore(symbol, nextDay(last), to, feed);
        } catch (error) {
          // Delayed data we already hold is still good: serve it and say so in the log. Real time must not degrade silently.
          if (feed === 'sip') throw error;
          tailCheckedAt.set(symbol, deps.clock.now().getTime());
          deps.logger.warn({ err: error, symbol }, 'market-data provider failed; answering from stored bars');
        }
      }
    }
    if (cached === undefined || cached.series.dates.length === 0) {
      throw new NotFound('unknown_symbol', `We have no prices for ${symbol}.`, [
        { field: 'body.symbol', message: 'has no stored prices; GET /api/symbols lists the symbols we have' },
      ]);
    }
    return { series: cached.slices.slice(from, to), version: cached.version };
  }

  function isTailStale(symbol: string): boolean {
    const checked = tailCheckedAt.get(symbol);
    return checked === undefined || deps.clock.now().getTime() - checked >= FEED_DELAY_MS;
  }

  return { barsFor, priceNow: (symbol, options) => priceNowOf({ clock: deps.clock, provider: deps.provider, cache, barsFor }, symbol, options), cache, provider: deps.provider };
}

/** Tells the listener; its failure is logged, never the fetch's (the bars are stored either way). */
async function notifyStored(deps: MarketDataDeps, symbol: string): Promise<void> {
  try {
    await deps.onBarsStored?.(symbol);
  } catch (error) {
    deps.logger.warn({ err: error, symbol }, 'a listener of stored bars failed');
  }
}
