import type { ComplianceRequest } from '../compliance/compliance.schema.js';
import { newYorkDate } from '../compliance/compliance-rules.js';
import { latestStoredBar } from '../market/bars.repo.js';
import type { MarketData } from '../market/market-data.service.js';
import type { PriceNow, PriceNowOptions } from '../market/price-now.js';
import type { DbOrTx } from '../platform/db/database.js';
import { AppError } from '../platform/errors.js';
import { immediateFillPrice } from './fills.js';
import type { OrderDraft } from './order-drafts.js';

/** The price an equity order is placed against, or why there is none (a 422 `no_price`). */
export interface FillPrice {
  readonly price: PriceNow | null;
  /** With no price: the refusal's message, when it is not the plain "nothing stored". */
  readonly missing?: string;
}

/**
 * The latest price of `symbol` (DESIGN "Market data", last point): the provider's delayed price where it owns the
 * symbol, else the latest stored close. A ticker the provider does not know (or has no recent trade of) is no price (422 `no_price`, stored as a
 * rejected order like every refusal); the provider's other failures are thrown (502, 503, 504: nothing is placed at
 * a price we could not check, and nothing is stored).
 */
export async function fillPriceOf(deps: { readonly prices: Pick<MarketData, 'priceNow'> }, symbol: string, options?: PriceNowOptions): Promise<FillPrice> {
  try {
    return { price: await deps.prices.priceNow(symbol, options) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unknown_symbol') {
      // The provider's own words: a ticker it does not know, or (Alpaca) no trade of it in the last week.
      return { price: null, missing: error.message };
    }
    throw error;
  }
}

/**
 * What enforcement judges an equity order by: the price it fills at (docs/trading.md "Order of refusals"), so a
 * market order at the same delayed price or close it fills at, a marketable limit at that price, a resting one at
 * its limit. Without a price, the draft as sent (the rules say what they cannot judge).
 */
export function judgedRequest(draft: OrderDraft, priced: FillPrice | null): ComplianceRequest {
  const price = priced?.price;
  if (draft.kind !== 'equity' || !price) return draft.compliance;
  const judged = immediateFillPrice(draft.side, draft.orderType, draft.limitPrice, price.price) ?? draft.limitPrice!;
  return { ...draft.compliance, order_type: 'market', price: judged };
}

/**
 * The session after which a resting limit may fill: the newest stored bar's date, or, when it was placed against a
 * delayed quote, that quote's New York date if later (the day's bar holds prices from before the order: only the
 * sessions after it can fill it).
 */
export async function restsAfter(db: DbOrTx, symbol: string, price: PriceNow): Promise<string> {
  const stored = (await latestStoredBar(db, symbol))?.date ?? price.at.slice(0, 10);
  if (price.source !== 'delayed_quote') return stored;
  const quoted = newYorkDate(new Date(price.at));
  return quoted > stored ? quoted : stored;
}
