import { sql, type Kysely } from 'kysely';

/**
 * `symbols.bars_source`: where the symbol's bars came from (`demo`, `import`, `alpaca`, `yahoo`). A provider refreshes
 * only the symbols it filled, so the demo `SPX` (the index from vega-datasets) is never extended with whatever a
 * provider calls `SPX` (docs/market-data.md). A column of `symbols`, not a table: the bar series cache already reads
 * that row by primary key before every series, and reads the source with the version at no extra cost.
 *
 * Backfill: the demo series is the `SPX` the first start loaded under the demo's name; every other symbol stored
 * before this migration is taken as imported (a symbol Alpaca filled before cannot be told from an import).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('symbols')
    .addColumn('bars_source', 'text', (c) => c.notNull().defaultTo('import').check(sql`bars_source in ('demo', 'import', 'alpaca', 'yahoo')`))
    .execute();
  await db.updateTable('symbols').set({ bars_source: 'demo' }).where('symbol', '=', 'SPX').where('name', '=', 'S&P 500 Index').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('symbols').dropColumn('bars_source').execute();
}
