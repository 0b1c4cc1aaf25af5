import type { DbOrTx } from '../platform/db/database.js';

/** The close of `symbol`'s newest stored bar, or null when none is stored. */
export async function latestStoredClose(db: DbOrTx, symbol: string): Promise<number | null> {
  const row = await db.selectFrom('bars').select('close').where('symbol', '=', symbol).orderBy('date', 'desc').limit(1).executeTakeFirst();
  return row ? Number(row.close) : null;
}
