import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Paper options settle at expiry (issue 26, DESIGN "Options strategies", last point): the settlement is an order in
 * the user's history, so the order list and the portfolio show it beside the trades. These columns say an order is
 * one: the expiry it settled, the underlying's close it settled at and that close's date (the expiry itself, or the
 * last session before it when the expiry was not a session). The unique index makes a second settlement of one
 * user's contracts of one underlying and expiry impossible, whatever runs the job (docs/trading.md "Settlement at
 * expiry"). Numbered 0012: 0011 and 0013 are other parts of issue 26.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('orders').addColumn('settles_expiry', t.date).execute();
  await db.schema.alterTable('orders').addColumn('settlement_close', t.double).execute();
  await db.schema.alterTable('orders').addColumn('settlement_close_date', t.date).execute();
  await db.schema.createIndex('orders_settlement_unique').unique().on('orders').columns(['user_id', 'symbol', 'settles_expiry']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_settlement_unique').execute();
  for (const column of ['settlement_close_date', 'settlement_close', 'settles_expiry']) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
}
