import { newYorkDate } from '../compliance/compliance-rules.js';
import { recentCloses } from '../market/bars.repo.js';
import { Unprocessable } from '../platform/errors.js';
import { CLOSES_FOR_MODEL, isMarketable, modeledQuote, noModelMessage } from './option-quote.js';
import { optionsDraft } from './order-drafts.js';
import type { TradingDeps } from './portfolio.service.js';
import { priceCheck, riskProfile } from './structure-payoff.js';
import type { OptionsPreview, PlaceOptionsOrderBody } from './trading.schema.js';

/**
 * `POST /api/trade-window/options-orders/preview`: the modeled price the order would fill at, and what it could lose
 * and gain at expiry and where it breaks even at that price (at the net price when the limit is not marketable),
 * before it is placed. The same validation (400), price bounds and model (422) as the order; nothing is stored, and
 * cash, expiry and compliance are judged only when the order is placed.
 */
export async function previewOptionsOrder(deps: Pick<TradingDeps, 'db' | 'clock'>, body: PlaceOptionsOrderBody): Promise<OptionsPreview> {
  const draft = optionsDraft(body);
  const closes = await recentCloses(deps.db, draft.symbol, CLOSES_FOR_MODEL);
  const price = priceCheck(draft.legs, body.net_price, closes.at(-1) ?? null);
  if (!price.ok) throw new Unprocessable(price.code, price.message);
  const quote = modeledQuote(draft.legs, { closes, today: newYorkDate(deps.clock.now()) });
  if (!quote) throw new Unprocessable('no_price', noModelMessage(draft.symbol, closes.length));
  const marketable = isMarketable(quote, body.net_price);
  return { ...riskProfile(draft.legs, draft.qty, marketable ? quote.ask : body.net_price), modeled: { bid: quote.bid, ask: quote.ask, mid: quote.mid, volatility: quote.volatility, marketable } };
}
