import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The trade window's money in whole cents. 0001 gave the paper account and positions `double precision` money;
 * nothing wrote those tables before the trade window, so they are recreated empty with integer cents (64-bit
 * `bigint`, read back as exact JavaScript numbers) and cost bases instead of drifting averages. Orders gain what
 * a refusal and a retry need (`violations`, `reject_message`, `request_hash`) and `rests_after`, the newest bar's
 * date when a limit order came to rest: only a bar after it can fill the order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.dropTable('paper_positions').execute();
  await db.schema.dropTable('paper_accounts').execute();

  await db.schema
    .createTable('paper_accounts')
    .addColumn('user_id', t.uuid, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('cash_cents', 'bigint', (c) => c.notNull())
    .addColumn('realized_pnl_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('paper_positions')
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('asset_class', 'text', (c) => c.notNull().check(sql`asset_class in ('equity', 'option')`))
    // Shares (never below 0: no shorting), or option contracts (negative: a sold leg).
    .addColumn('qty', 'bigint', (c) => c.notNull())
    // What the open quantity cost, in cents (negative for a sold option leg: credit received).
    .addColumn('cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_positions_pk', ['user_id', 'symbol'])
    .execute();

  await db.schema.alterTable('orders').addColumn('violations', 'text').execute();
  await db.schema.alterTable('orders').addColumn('reject_message', 'text').execute();
  await db.schema.alterTable('orders').addColumn('request_hash', 'text').execute();
  await db.schema.alterTable('orders').addColumn('rests_after', t.date).execute();
  await db.schema.createIndex('orders_resting_idx').on('orders').columns(['symbol', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.dropIndex('orders_resting_idx').execute();
  for (const column of ['rests_after', 'request_hash', 'reject_message', 'violations']) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
  await db.schema.dropTable('paper_positions').execute();
  await db.schema.dropTable('paper_accounts').execute();
  await db.schema
    .createTable('paper_accounts')
    .addColumn('user_id', t.uuid, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('cash', t.double, (c) => c.notNull().defaultTo(100000))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('paper_positions')
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('qty', t.double, (c) => c.notNull())
    .addColumn('avg_price', t.double, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_positions_pk', ['user_id', 'symbol'])
    .execute();
}
