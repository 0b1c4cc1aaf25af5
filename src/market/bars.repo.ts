import { sql } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { Bar } from './bar-series.js';

/**
 * Inserts or updates one batch of `symbol`'s bars by date (keep it to ~1,000 rows: 7 parameters each);
 * a bar whose prices are already stored is left alone. Returns how many rows were inserted or changed
 * (0 on a re-import of the same data).
 */
export async function upsertBarBatch(db: DbOrTx, symbol: string, bars: readonly Bar[]): Promise<number> {
  const rows = bars.map((bar) => ({ symbol, date: bar.date, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume }));
  const result = await db
    .insertInto('bars')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['symbol', 'date'])
        .doUpdateSet((eb) => ({
          open: eb.ref('excluded.open'),
          high: eb.ref('excluded.high'),
          low: eb.ref('excluded.low'),
          close: eb.ref('excluded.close'),
          volume: eb.ref('excluded.volume'),
        }))
        .where((eb) =>
          eb.or(
            (['open', 'high', 'low', 'close', 'volume'] as const).map((column) =>
              eb(`bars.${column}`, '<>', eb.ref(`excluded.${column}`)),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** Deletes every stored bar of `symbol` (an import taking over a symbol another source filled). */
export async function deleteBarsOf(db: DbOrTx, symbol: string): Promise<void> {
  await db.deleteFrom('bars').where('symbol', '=', symbol).execute();
}

/** Every stored bar of `symbol`, oldest first. */
export async function readBars(db: DbOrTx, symbol: string): Promise<Bar[]> {
  return db
    .selectFrom('bars')
    .select(['date', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', symbol)
    .orderBy('date')
    .execute();
}

/** Whether any bar is stored at all (the demo data is loaded into an empty store only). */
export async function hasAnyBar(db: DbOrTx): Promise<boolean> {
  const row = await db.selectFrom('bars').select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The close of `symbol`'s newest stored bar, or null when none is stored. */
export async function latestStoredClose(db: DbOrTx, symbol: string): Promise<number | null> {
  const bar = await latestStoredBar(db, symbol);
  return bar ? Number(bar.close) : null;
}

/** The closes of `symbol`'s newest `count` stored bars, oldest first (fewer when fewer are stored). */
export async function recentCloses(db: DbOrTx, symbol: string, count: number): Promise<number[]> {
  const rows = await db.selectFrom('bars').select('close').where('symbol', '=', symbol).orderBy('date', 'desc').limit(count).execute();
  return rows.map((row) => Number(row.close)).reverse();
}

/** `symbol`'s newest stored bar (its date and close), or undefined when none is stored. */
export async function latestStoredBar(db: DbOrTx, symbol: string): Promise<{ date: string; close: number } | undefined> {
  return db.selectFrom('bars').select(['date', 'close']).where('symbol', '=', symbol).orderBy('date', 'desc').limit(1).executeTakeFirst();
}

/** `symbol`'s bars dated after `date` (`YYYY-MM-DD`), oldest first. */
export async function barsAfter(db: DbOrTx, symbol: string, date: string): Promise<Bar[]> {
  return db
    .selectFrom('bars')
    .select(['date', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', symbol)
    .where('date', '>', date)
    .orderBy('date')
    .execute();
}

/** `symbol`'s newest bar dated `date` or before it (its date and close), or undefined. */
export async function barOnOrBefore(db: DbOrTx, symbol: string, date: string): Promise<{ date: string; close: number } | undefined> {
  return db.selectFrom('bars').select(['date', 'close']).where('symbol', '=', symbol).where('date', '<=', date).orderBy('date', 'desc').limit(1).executeTakeFirst();
}

/** Whether a bar of `symbol` dated after `date` is stored. */
export async function hasBarAfter(db: DbOrTx, symbol: string, date: string): Promise<boolean> {
  const row = await db.selectFrom('bars').select('date').where('symbol', '=', symbol).where('date', '>', date).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** How many bars of `symbol` are stored and the dates of the first and the last (null dates when none). */
export async function storedRange(db: DbOrTx, symbol: string): Promise<{ bars: number; first: string | null; last: string | null }> {
  const row = await db
    .selectFrom('bars')
    .select((eb) => [eb.fn.countAll<number>().as('bars'), eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
    .where('symbol', '=', symbol)
    .executeTakeFirstOrThrow();
  return { bars: Number(row.bars), first: row.first ?? null, last: row.last ?? null };
}
