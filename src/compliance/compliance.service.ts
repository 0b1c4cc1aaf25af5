import type { AuthContext } from '../auth/sessions.service.js';
import { BadRequest } from '../platform/errors.js';
import { isTicker } from '../market/market-terms.js';
import { latestStoredClose } from '../market/bars.repo.js';
import { loadOwnStrategy, strategyView, type StrategyDeps } from '../strategies/strategies.service.js';
import { checkCompliance, newYorkDate, type ComplianceContext, type ComplianceTrade, type OptionLeg } from './compliance-rules.js';
import type { ComplianceRequest, ComplianceResult } from './compliance.schema.js';
import { parseOccSymbol } from './occ-symbol.js';
import { immediateFillPrice } from '../trading/fills.js';

/**
 * `POST /api/trading/compliance-check`: the request's own mistakes are a 400 (checked first), another
 * user's strategy a 404; otherwise every violation of the pure rules at once.
 */
export async function checkMyTrade(deps: StrategyDeps, caller: Pick<AuthContext, 'userId'>, request: ComplianceRequest): Promise<ComplianceResult> {
  return evaluateTrade(deps, caller.userId, request);
}

/**
 * The one evaluation of a proposed trade against a user's strategy, for the compliance check and the trade
 * window's enforcement alike: 400 for a malformed symbol, leg or limit order, 404 for a strategy that is not
 * the user's, else the verdict with every violation. For an equity order without a price, the latest stored
 * close of the symbol stands in, and a limit order is judged by the price it fills at (`limitOrderPrice`); an
 * options order's price is only its own. `deps.db` may be a transaction.
 */
export async function evaluateTrade(deps: StrategyDeps, userId: string, request: ComplianceRequest): Promise<ComplianceResult> {
  const trade = tradeOf(request);
  const row = await loadOwnStrategy(deps.db, { userId }, request.strategy_id);
  const context = await contextFor(deps, trade, request.order_type ?? 'market');
  const strategy = strategyView(row);
  const { compliant, violations } = checkCompliance(strategy, trade, context);
  return { compliant, strategy, violations };
}

/** The trade the rules see, or a 400 for a malformed symbol, leg or limit order. */
export function tradeOf(request: ComplianceRequest): ComplianceTrade {
  if (!isTicker(request.symbol)) {
    throw new BadRequest('invalid_symbol', `Symbol "${request.symbol}" is not a ticker: upper-case letters and digits, such as SPY or BRK.B.`, [
      { field: 'body.symbol', message: 'is not an upper-case ticker' },
    ]);
  }
  if (request.order_type === 'limit' && request.price === undefined) {
    throw new BadRequest('validation_failed', 'A limit order needs a price.', [{ field: 'body.price', message: 'is required for a limit order' }]);
  }
  const legs = (request.legs ?? []).map((leg, index): OptionLeg => {
    const option = parseOccSymbol(leg.symbol);
    if (!option) {
      throw new BadRequest('invalid_option_symbol', `Leg ${index + 1}: "${leg.symbol}" is not an OCC option symbol (root, YYMMDD, C or P, strike × 1000 in 8 digits, such as SPY261218C00450000).`, [{ field: `body.legs.${index}.symbol`, message: 'is not an OCC option symbol' }]);
    }
    return { ...option, side: leg.side };
  });
  return { symbol: request.symbol, qty: request.qty, side: request.side, price: request.price ?? null, legs };
}

async function contextFor(deps: StrategyDeps, trade: ComplianceTrade, orderType: 'market' | 'limit'): Promise<ComplianceContext> {
  const today = newYorkDate(deps.clock.now());
  if (trade.price !== null && (trade.legs.length > 0 || orderType === 'market')) return { today, referencePrice: trade.price };
  if (trade.legs.length > 0) return { today, referencePrice: null, priceUnknownReason: 'an options order has no stored price; give its net price per share' };
  const close = await latestStoredClose(deps.db, trade.symbol);
  if (trade.price !== null) return { today, referencePrice: limitOrderPrice(trade.side, trade.price, close) };
  return close === null
    ? { today, referencePrice: null, priceUnknownReason: `no price in the request and no stored close for ${trade.symbol}` }
    : { today, referencePrice: close };
}

/**
 * An equity limit order is judged by the price it fills at (DESIGN "Paper trading"): a marketable one fills at once
 * at the latest close, so a sell limited at 0.01 is worth qty × close, not qty × 0.01 (max(limit, close) for a sell,
 * min(limit, close) for a buy); a resting one at its limit. With no stored close, its limit.
 */
function limitOrderPrice(side: 'buy' | 'sell', limit: number, close: number | null): number {
  return close === null ? limit : (immediateFillPrice(side, 'limit', limit, close) ?? limit);
}
