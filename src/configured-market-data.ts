import type { FastifyBaseLogger } from 'fastify';
import { marketDataProviderFor } from './market/market-data-provider.js';
import { createMarketData, type MarketData } from './market/market-data.service.js';
import type { Platform } from './platform/platform.js';
import { fillRestingOrders } from './trading/resting-orders.service.js';

/**
 * The market data the configuration names (`MARKET_DATA_PROVIDER`). Bars fetched from the provider may fill resting
 * limit orders: market announces, trading listens. Built by the HTTP app and by the job runner, each its own (a
 * `tradelab worker` process has no app).
 */
export function configuredMarketData(platform: Platform, logger: FastifyBaseLogger): MarketData {
  return createMarketData({
    db: platform.db,
    clock: platform.clock,
    logger,
    provider: marketDataProviderFor(platform.config, { clock: platform.clock, logger }),
    onBarsStored: async (symbol) => void (await fillRestingOrders(platform, symbol)),
  });
}
