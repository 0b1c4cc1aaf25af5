import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * An open options position as the structure it was traded as (issue 29): the legs and ratios of the order that
 * opened it, how many units are still open and the net price per share paid (negative: received). Cash and the
 * per-contract positions stay in `paper_accounts` and `paper_positions`; this table only says how they are grouped,
 * so the Trade page shows a spread as one position at the price paid, not as legs with the price split between them.
 * Numbered 0009: 0008 is the breach steps and export tombstones of another part of issue 29.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('option_structures')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('underlying', 'text', (c) => c.notNull())
    // JSON array of {symbol (compact OCC), side, ratio}, as the opening order had them.
    .addColumn('legs', 'text', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('net_price', t.double, (c) => c.notNull())
    .addColumn('opened_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('option_structures_user_idx').on('option_structures').columns(['user_id', 'opened_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('option_structures').execute();
}
