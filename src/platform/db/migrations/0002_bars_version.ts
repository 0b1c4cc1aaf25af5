import type { Kysely } from 'kysely';

/**
 * `symbols.bars_version` goes up in the same transaction as any change to a symbol's bars, so every
 * process can tell with one primary-key read whether its in-memory copy of the series is stale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('symbols')
    .addColumn('bars_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('symbols').dropColumn('bars_version').execute();
}
