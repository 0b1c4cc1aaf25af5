import { assertTicker } from '../market/market-terms.js';
import { NotFound } from '../platform/errors.js';
import { fillPriceOf } from './fill-price.js';
import type { PlacementDeps } from './orders.service.js';
import type { PriceQuote } from './trading.schema.js';

/**
 * `GET /api/trade-window/quote?symbol=`: the price a market order on `symbol` would fill at now, with its time and
 * source, asked exactly as the order route asks it (so the Trade page shows what the order gets). Nothing is stored.
 * 400 for a malformed ticker, 404 `no_price` when nothing can price it, the provider's 502/503/504 as the order has.
 */
export async function quoteFor(deps: Pick<PlacementDeps, 'prices'>, symbol: string): Promise<PriceQuote> {
  assertTicker(symbol);
  // A look, not an order: a ticker the store lacks is not fetched and stored for it (the order does that).
  const { price, missing } = await fillPriceOf(deps, symbol, { fetchHistory: false });
  if (!price) throw new NotFound('no_price', missing ?? `There are no stored bars of ${symbol} to fill at: import or fetch its bars first.`, [{ field: 'querystring.symbol', message: 'has no price' }]);
  if (price.source === 'delayed_quote') {
    return { symbol, price: price.price, source: 'delayed_quote', at: price.at, provider: price.provider, market_closed: false };
  }
  return { symbol, price: price.price, source: 'stored_close', at: price.at, provider: null, market_closed: price.reason === 'market_closed' };
}
