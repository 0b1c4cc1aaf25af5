import { latestStoredClose } from '../market/bars.repo.js';
import { Unprocessable } from '../platform/errors.js';
import { optionsDraft } from './order-drafts.js';
import type { TradingDeps } from './portfolio.service.js';
import { priceCheck, riskProfile, type RiskProfile } from './structure-payoff.js';
import type { PlaceOptionsOrderBody } from './trading.schema.js';

/**
 * `POST /api/trade-window/options-orders/preview`: what the order could lose and gain at expiry and where it breaks
 * even, before it is placed. The same validation (400) and price bounds (422) as the order; nothing is stored, and
 * cash, expiry and compliance are judged only when the order is placed.
 */
export async function previewOptionsOrder(deps: Pick<TradingDeps, 'db'>, body: PlaceOptionsOrderBody): Promise<RiskProfile> {
  const draft = optionsDraft(body);
  const price = priceCheck(draft.legs, body.net_price, await latestStoredClose(deps.db, draft.symbol));
  if (!price.ok) throw new Unprocessable(price.code, price.message);
  return riskProfile(draft.legs, draft.qty, body.net_price);
}
