import { barsAfter } from '../market/bars.repo.js';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import { cooldownEnd, TRADE_COOLDOWN } from './cooldown.js';
import { restingFill } from './fills.js';
import { amountCents } from './money.js';
import { listRestingOrdersOn, markFilled, type OrderRow } from './orders.repo.js';
import { cancelRestingOrdersOf } from './order-book.service.js';
import { bookFill, openAccount, type TradingDeps } from './portfolio.service.js';

/**
 * Fills the resting limit orders on `symbol` that a bar newer than their rest reaches (DESIGN: a buy when the low
 * reaches the limit, at min(open, limit); a sell when the high does, at max(open, limit)), oldest order first, each
 * in its own transaction under its owner's account lock. Nothing fills for an erased account or one in its recovery
 * cooldown: its resting orders are canceled instead, by the system (erasure and recovery cancel them in their own
 * transactions; this catches any left from before they did). The bar store calls it after it stored new bars of the
 * symbol (an import or a provider fetch), through the listener the composition wires. Returns the orders filled.
 */
export async function fillRestingOrders(deps: Pick<TradingDeps, 'db' | 'dialect' | 'clock'>, symbol: string): Promise<number> {
  let filled = 0;
  for (const order of await listRestingOrdersOn(deps.db, symbol)) {
    if (await fillOne(deps, order)) filled += 1;
  }
  return filled;
}

async function fillOne(deps: Pick<TradingDeps, 'db' | 'dialect' | 'clock'>, order: OrderRow): Promise<boolean> {
  if (order.rests_after === null || order.limit_price === null) return false;
  const fill = restingFill(order.side, Number(order.limit_price), await barsAfter(deps.db, order.symbol, order.rests_after));
  if (!fill) return false;
  return deps.db.transaction().execute(async (trx) => {
    const { account, user } = await openAccount(trx, deps, order.user_id);
    const halted = user?.deleted_at != null ? 'erasure' : cooldownEnd(user, deps.clock) !== null ? TRADE_COOLDOWN : null;
    if (halted !== null) {
      await cancelRestingOrdersOf(trx, deps, order.user_id, halted, null);
      return false;
    }
    // Canceled meanwhile: nothing to fill.
    if (!(await markFilled(trx, order.id, { fill_price: fill.price, filled_at: isoNow(deps.clock), price_at: fill.date }))) return false;
    const paid = amountCents(order.qty, fill.price);
    const buy = order.side === 'buy';
    await bookFill(trx, deps.clock, account, [{ symbol: order.symbol, assetClass: 'equity', delta: buy ? order.qty : -order.qty, paidCents: buy ? paid : -paid }]);
    await appendAudit(trx, deps.clock, {
      actorUserId: null,
      action: 'order.fill',
      targetKind: 'order',
      targetId: order.id,
      context: { fill_price: fill.price, bar_date: fill.date, resting: true },
    });
    return true;
  });
}
