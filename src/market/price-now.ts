import type { Clock } from '../platform/clock.js';
import { MINUTE } from '../platform/clock.js';
import { FEED_DELAY_MS } from './alpaca.provider.js';
import type { BarSeriesCache, CachedSeries } from './bar-series-cache.js';
import type { MarketDataProvider, ProviderPrice } from './market-data-provider.js';
import type { MarketData } from './market-data.service.js';

/**
 * How old a provider's price may be and still be a delayed quote of a market that trades: 15 minutes (DESIGN), plus
 * the one-minute bar Alpaca's price is the close of (its newest bar ends at the 15-minute delay line). An older price
 * means the market is closed: what it last traded at is the last session's close, which the store holds.
 */
export const DELAYED_PRICE_MAX_AGE_MS = FEED_DELAY_MS + MINUTE;

/** Why a price is a stored close rather than the provider's delayed price. */
export type StoredCloseReason = 'no_provider' | 'not_provider_symbol' | 'market_closed';

/**
 * The latest price the service knows of a symbol (DESIGN "Market data", last point): the provider's delayed price
 * (`delayed_quote`, `at` an ISO 8601 instant) or the latest stored close (`stored_close`, `at` its session's date).
 */
export type PriceNow =
  | { readonly source: 'delayed_quote'; readonly price: number; readonly at: string; readonly provider: MarketDataProvider['source'] }
  | { readonly source: 'stored_close'; readonly price: number; readonly at: string; readonly reason: StoredCloseReason; readonly providerPrice?: ProviderPrice };

export interface PriceNowDeps {
  readonly clock: Clock;
  readonly provider: MarketDataProvider | null;
  readonly cache: BarSeriesCache;
  readonly barsFor: MarketData['barsFor'];
}

/** How `priceNowOf` may fill the store. */
export interface PriceNowOptions {
  /**
   * Fetch and store the whole history of a symbol the store lacks before pricing it (an order: the position is then
   * valued and a resting limit has bars to wait on). False for a look before the order (the Trade page asks as the
   * ticker is typed): only the provider's price is asked, unless it is a closed market's, whose close must be stored.
   */
  readonly fetchHistory: boolean;
}

/**
 * `symbol`'s price now, or null when nothing is stored and no provider is configured. The provider is asked only for
 * a symbol it filled or the store lacks (the demo's and imported symbols are priced as stored, as their bars are
 * served); a symbol the store lacks is fetched first when `fetchHistory`, so the store holds it once it is traded. A price older than
 * `DELAYED_PRICE_MAX_AGE_MS` (the market is closed) gives way to the stored close, after the symbol's newest sessions
 * were fetched (at most every 15 minutes). Throws the provider's errors (404 `unknown_symbol`, 502, 503, 504): no
 * price is made up when the provider that owns the symbol cannot be asked.
 */
export async function priceNowOf(deps: PriceNowDeps, symbol: string, options: PriceNowOptions = { fetchHistory: true }): Promise<PriceNow | null> {
  const { provider } = deps;
  const cached = await deps.cache.get(symbol);
  if (provider === null || (cached !== undefined && cached.source !== provider.source)) {
    return storedClose(cached, provider === null ? 'no_provider' : 'not_provider_symbol');
  }
  const today = deps.clock.now().toISOString().slice(0, 10);
  if (cached === undefined && options.fetchHistory) await deps.barsFor(symbol, today, today, 'delayed_sip');
  const quote = await provider.latestPrice(symbol);
  if (deps.clock.now().getTime() - Date.parse(quote.at) <= DELAYED_PRICE_MAX_AGE_MS) {
    return { source: 'delayed_quote', price: quote.price, at: quote.at, provider: provider.source };
  }
  await deps.barsFor(symbol, today, today, 'delayed_sip');
  return storedClose(await deps.cache.get(symbol), 'market_closed', quote);
}

function storedClose(cached: CachedSeries | undefined, reason: StoredCloseReason, providerPrice?: ProviderPrice): PriceNow | null {
  const last = (cached?.series.dates.length ?? 0) - 1;
  if (cached === undefined || last < 0) return null;
  return { source: 'stored_close', price: cached.series.close[last]!, at: cached.series.dates[last]!, reason, ...(providerPrice ? { providerPrice } : {}) };
}
