import type { Insertable, Selectable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { OrdersTable, OrderStatus } from '../platform/db/schema.js';

export type OrderRow = Selectable<OrdersTable>;

export async function insertOrder(db: DbOrTx, order: Insertable<OrdersTable>): Promise<OrderRow> {
  return db.insertInto('orders').values(order).returningAll().executeTakeFirstOrThrow();
}

/** The user's order, or undefined (also for another user's id). */
export async function findOrder(db: DbOrTx, userId: string, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** The user's order placed under `clientOrderId`, the idempotency key. */
export async function findOrderByClientId(db: DbOrTx, userId: string, clientOrderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('client_order_id', '=', clientOrderId).executeTakeFirst();
}

/** One page of the user's orders, newest first (ties by id, so pages never overlap). */
export async function listOrders(db: DbOrTx, userId: string, page: { status?: OrderStatus | undefined; limit: number; offset: number }): Promise<OrderRow[]> {
  let query = db.selectFrom('orders').selectAll().where('user_id', '=', userId);
  if (page.status) query = query.where('status', '=', page.status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countOrders(db: DbOrTx, userId: string, status?: OrderStatus): Promise<number> {
  let query = db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId);
  if (status) query = query.where('status', '=', status);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's resting (accepted) orders: what reserves cash and shares. */
export async function listUserRestingOrders(db: DbOrTx, userId: string): Promise<OrderRow[]> {
  return db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('status', '=', 'accepted').execute();
}

/** Every user's resting orders on `symbol`, oldest first (the order they fill in). */
export async function listRestingOrdersOn(db: DbOrTx, symbol: string): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('asset_class', '=', 'equity')
    .where('status', '=', 'accepted')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The symbols with resting equity orders, alphabetical. */
export async function listRestingSymbols(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectFrom('orders').select('symbol').distinct().where('asset_class', '=', 'equity').where('status', '=', 'accepted').orderBy('symbol').execute();
  return rows.map((row) => row.symbol);
}

/** Fills a resting order at a bar's price (`price_at` the bar's date); false when it no longer rests (canceled or filled meanwhile). */
export async function markFilled(db: DbOrTx, id: string, fill: { fill_price: number; filled_at: string; price_at: string }): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'filled', fill_price: fill.fill_price, filled_at: fill.filled_at, fill_source: 'resting_bar', price_at: fill.price_at, updated_at: fill.filled_at })
    .where('id', '=', id)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels the user's resting order; false when it does not rest (or is not theirs). */
export async function markCanceled(db: DbOrTx, userId: string, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'canceled', updated_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
