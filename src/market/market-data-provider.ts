import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../platform/config.js';
import type { Clock } from '../platform/clock.js';
import { fetchAlpacaDailyBars, fetchAlpacaLatestPrice } from './alpaca.provider.js';
import type { Bar } from './bar-series.js';
import type { DataFeed } from './market-terms.js';
import { createYahooDailyBars, createYahooLatestPrice, createYahooSearch } from './yahoo.provider.js';

/** Where bars the store lacks come from (`MARKET_DATA_PROVIDER`). */
export interface MarketDataProvider {
  /** Recorded as the source of the symbols it fills; it refreshes only those. */
  readonly source: 'alpaca' | 'yahoo';
  /** Whether it serves real-time data (`data_feed: "sip"`); without it `sip` is 403 `feed_not_entitled`. */
  readonly realTime: boolean;
  /** Daily bars dated `from` to `to` (`YYYY-MM-DD`, inclusive), adjusted for splits and dividends. */
  dailyBars(symbol: string, from: string, to: string, feed: DataFeed): Promise<Bar[]>;
  /** The latest price it can give (delayed, never real time): what a paper market order fills at while the market trades. */
  latestPrice(symbol: string): Promise<ProviderPrice>;
  /** Tickers it knows matching a ticker or name, best first; absent for a provider without a search (Alpaca's data API). */
  readonly searchSymbols?: (query: string) => Promise<ProviderSymbol[]>;
}

/** A provider's latest price and when it was made (ISO 8601). */
export interface ProviderPrice {
  readonly price: number;
  readonly at: string;
}

/** A ticker a provider knows, with its name there. */
export interface ProviderSymbol {
  readonly symbol: string;
  readonly name: string;
}

export interface ProviderDeps {
  readonly clock: Clock;
  readonly logger: Pick<FastifyBaseLogger, 'debug'>;
  /** Injected into Alpaca's retries so tests do not wait out `Retry-After`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The configured provider, or `null` for `MARKET_DATA_PROVIDER=none` (only stored bars are served). */
export function marketDataProviderFor(config: Pick<Config, 'marketDataProvider' | 'alpaca' | 'yahoo'>, deps: ProviderDeps): MarketDataProvider | null {
  if (config.marketDataProvider === 'yahoo') {
    const yahooDeps = { config: config.yahoo, clock: deps.clock, logger: deps.logger };
    const dailyBars = createYahooDailyBars(yahooDeps);
    return {
      source: 'yahoo',
      realTime: false,
      dailyBars: (symbol, from, to) => dailyBars(symbol, from, to),
      latestPrice: createYahooLatestPrice(yahooDeps),
      searchSymbols: createYahooSearch(yahooDeps),
    };
  }
  const alpaca = config.alpaca;
  if (config.marketDataProvider !== 'alpaca' || alpaca === null) return null;
  const alpacaDeps = { config: alpaca, clock: deps.clock, ...(deps.sleep ? { sleep: deps.sleep } : {}) };
  return {
    source: 'alpaca',
    realTime: true,
    dailyBars: (symbol, from, to, feed) => fetchAlpacaDailyBars(alpacaDeps, symbol, from, to, feed),
    latestPrice: (symbol) => fetchAlpacaLatestPrice(alpacaDeps, symbol),
  };
}
