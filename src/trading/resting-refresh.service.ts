/**
 * The refresh of the symbols that have resting limit orders (DESIGN "Market data", last point): each run asks the
 * market data for each such symbol's newest sessions once (a provider refreshes only the symbols it filled, at most
 * every 15 minutes; the demo's and imported ones are as stored), then fills the orders the bars reach with the
 * resting-order fill rule. A provider failure is logged and the run goes on with the next symbol.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { MarketData } from '../market/market-data.service.js';
import { listRestingSymbols } from './orders.repo.js';
import type { TradingDeps } from './portfolio.service.js';
import { fillRestingOrders } from './resting-orders.service.js';

export interface RestingRefreshDeps extends Pick<TradingDeps, 'db' | 'dialect' | 'clock'> {
  readonly logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** null (`MARKET_DATA_PROVIDER=none`): nothing to refresh from; the stored bars still fill what they reach. */
  readonly marketData: Pick<MarketData, 'barsFor'> | null;
}

export interface RestingRefreshRun {
  /** The symbols with resting orders, each refreshed once. */
  readonly symbols: readonly string[];
  /** Orders filled. */
  readonly filled: number;
  /** Symbols whose refresh failed (logged); their orders were still checked against the stored bars. */
  readonly failed: readonly string[];
}

/** One run of the refresh job. */
export async function refreshRestingSymbols(deps: RestingRefreshDeps): Promise<RestingRefreshRun> {
  const today = deps.clock.now().toISOString().slice(0, 10);
  const symbols = await listRestingSymbols(deps.db);
  const failed: string[] = [];
  let filled = 0;
  for (const symbol of symbols) {
    try {
      await deps.marketData?.barsFor(symbol, today, today, 'delayed_sip');
    } catch (error) {
      failed.push(symbol);
      deps.logger.warn({ err: error, symbol }, 'resting orders refresh: the market-data provider failed; the stored bars fill what they reach');
    }
    filled += await fillRestingOrders(deps, symbol);
  }
  return { symbols, filled, failed };
}
