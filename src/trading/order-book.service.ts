import type { AuthContext } from '../auth/sessions.service.js';
import { appendAudit } from '../platform/audit/audit.js';
import type { DbOrTx } from '../platform/db/database.js';
import { isoNow } from '../platform/clock.js';
import { Conflict, NotFound } from '../platform/errors.js';
import { orderView } from './order-view.js';
import { countOrders, findOrder, listOrders, listUserRestingOrders, markCanceled } from './orders.repo.js';
import { openAccount, type TradingDeps } from './portfolio.service.js';
import { ORDER_LIST_DEFAULT_LIMIT, type Order, type OrderListQuery } from './trading.schema.js';

type Caller = Pick<AuthContext, 'userId'>;

/** `GET /api/trade-window/orders`: one page, newest first, and the total for `X-Total-Count`. */
export async function listMyOrders(deps: TradingDeps, caller: Caller, query: OrderListQuery): Promise<{ orders: Order[]; total: number }> {
  const page = { status: query.status, limit: query.limit ?? ORDER_LIST_DEFAULT_LIMIT, offset: query.offset ?? 0 };
  const [rows, total] = await Promise.all([listOrders(deps.db, caller.userId, page), countOrders(deps.db, caller.userId, query.status)]);
  return { orders: rows.map(orderView), total };
}

/** One of the caller's orders; 404 for another user's id too, so nothing confirms it exists. */
export async function getMyOrder(deps: TradingDeps, caller: Caller, id: string): Promise<Order> {
  const row = await findOrder(deps.db, caller.userId, id);
  if (!row) throw orderNotFound(id);
  return orderView(row);
}

/**
 * `DELETE /api/trade-window/orders/{id}`: cancels a resting order (its reserved cash or shares are free again);
 * 409 `order_not_cancelable` once it is filled, rejected or canceled. Under the account's lock, so a fill on a new
 * bar and a cancel cannot both happen.
 */
export async function cancelMyOrder(deps: TradingDeps, caller: Caller, id: string): Promise<Order> {
  return deps.db.transaction().execute(async (trx) => {
    await openAccount(trx, deps, caller.userId);
    const row = await findOrder(trx, caller.userId, id);
    if (!row) throw orderNotFound(id);
    if (!(await markCanceled(trx, caller.userId, id, isoNow(deps.clock)))) {
      throw new Conflict('order_not_cancelable', `Order ${id} is ${row.status}; only a resting (accepted) order can be canceled.`);
    }
    await appendAudit(trx, deps.clock, { actorUserId: caller.userId, action: 'order.cancel', targetKind: 'order', targetId: id });
    return orderView((await findOrder(trx, caller.userId, id))!);
  });
}

/**
 * Cancels every resting order of the user in the caller's transaction, under the account's lock (as a cancel by
 * hand), each audited `order.cancel` with `reason` by `actorUserId` (the user; null for the system). Used by
 * erasure, recovery and the fill job. Returns the ids canceled.
 */
export async function cancelRestingOrdersOf(
  trx: DbOrTx,
  deps: Pick<TradingDeps, 'dialect' | 'clock'>,
  userId: string,
  reason: string,
  actorUserId: string | null = userId,
): Promise<string[]> {
  if ((await listUserRestingOrders(trx, userId)).length === 0) return [];
  await openAccount(trx, deps, userId);
  const canceled: string[] = [];
  for (const order of await listUserRestingOrders(trx, userId)) {
    if (!(await markCanceled(trx, userId, order.id, isoNow(deps.clock)))) continue;
    await appendAudit(trx, deps.clock, { actorUserId, action: 'order.cancel', targetKind: 'order', targetId: order.id, context: { reason } });
    canceled.push(order.id);
  }
  return canceled;
}

function orderNotFound(id: string): NotFound {
  return new NotFound('not_found', `There is no order ${id} in your history.`);
}
