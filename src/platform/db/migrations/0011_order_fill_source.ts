import type { Kysely } from 'kysely';

/**
 * Where a filled order's price came from (issue 26, DESIGN "Market data", last point): `fill_source` — `delayed_quote`
 * (the provider's delayed price), `stored_close` (the latest stored close), `resting_bar` (a resting limit reached
 * by a newer bar), `modeled_price` (an options order at its Black–Scholes price) or `expiry_close` (a settlement at
 * expiry) — and `price_at`, that price's time: an ISO 8601 instant for a delayed quote, else the `YYYY-MM-DD` of the
 * session whose bar it came from (text on both dialects, since it is one or the other). Both null for an order not
 * filled, and for orders filled before this migration (their source was not recorded; docs/trading.md "Fill source").
 * Numbered 0011: 0012 and 0013 are other parts of the same round.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('fill_source', 'text').execute();
  await db.schema.alterTable('orders').addColumn('price_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('price_at').execute();
  await db.schema.alterTable('orders').dropColumn('fill_source').execute();
}
