import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * `strategies.exit_trailing_stop_pct` (issue 25): a library strategy's trailing stop, a fraction in (0, 1) of the
 * highest close since the entry; null (every strategy stored before) is none. Only the backtest reads it: the
 * compliance check and the trade window do not. Numbered 0013: 0011 and 0012 are other parts of the same round.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable('strategies')
    .addColumn('exit_trailing_stop_pct', t.double, (c) => c.check(sql`exit_trailing_stop_pct > 0 and exit_trailing_stop_pct < 1`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('strategies').dropColumn('exit_trailing_stop_pct').execute();
}
