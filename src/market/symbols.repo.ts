import { sql } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import { compiledOnce } from '../platform/db/compiled-once.js';
import type { BarsSource } from '../platform/db/schema.js';

export interface SymbolRow {
  readonly symbol: string;
  readonly name: string;
}

/**
 * Creates the symbol with `source`, or renames it when `name` is given for one that exists. Returns the source the
 * store records for it (another one when someone else filled it) and, on PostgreSQL, holds the symbol's row locked to
 * the end of the transaction, so no other writer changes its bars or source in between.
 */
export async function upsertSymbol(
  db: DbOrTx,
  input: { symbol: string; name: string; now: string; rename: boolean; source: BarsSource },
): Promise<BarsSource> {
  const row = await db
    .insertInto('symbols')
    .values({ symbol: input.symbol, name: input.name, created_at: input.now, bars_source: input.source })
    .onConflict((oc) => oc.column('symbol').doUpdateSet((eb) => (input.rename ? { name: input.name } : { bars_source: eb.ref('symbols.bars_source') })))
    .returning('bars_source')
    .executeTakeFirstOrThrow();
  return row.bars_source;
}

/** Records `source` as where the symbol's bars now come from. */
export async function setBarsSource(db: DbOrTx, symbol: string, source: BarsSource): Promise<void> {
  await db.updateTable('symbols').set({ bars_source: source }).where('symbol', '=', symbol).execute();
}

/** Marks the symbol's bars as changed, so every process reloads its cached series. */
export async function bumpBarsVersion(db: DbOrTx, symbol: string): Promise<void> {
  await db
    .updateTable('symbols')
    .set((eb) => ({ bars_version: eb('bars_version', '+', 1) }))
    .where('symbol', '=', symbol)
    .execute();
}

const SYMBOL = '\u0000symbol';
/** Read before every backtest's bars (the series cache's freshness check): compiled once. */
const barsStateOf = compiledOnce([SYMBOL], (db) => db.selectFrom('symbols').select(['bars_version', 'bars_source']).where('symbol', '=', SYMBOL));

/** The symbol's bar version and source, or `undefined` for a symbol we do not know. One primary-key read. */
export async function readBarsState(db: DbOrTx, symbol: string): Promise<{ bars_version: number; bars_source: BarsSource } | undefined> {
  const { rows } = await db.executeQuery(barsStateOf(db, [symbol]));
  return rows[0];
}

/**
 * Symbols whose ticker starts with `query`, or one of whose name's words (split on spaces) does,
 * case-insensitively: exact ticker first, then ticker prefixes, then name matches, each alphabetical.
 */
export async function searchSymbols(db: DbOrTx, query: string, page: { limit: number; offset: number }): Promise<SymbolRow[]> {
  const q = query.toLowerCase();
  const rank = sql<number>`case when lower(symbol) = ${q} then 0 when lower(symbol) like ${`${escapeLike(q)}%`} escape '\\' then 1 else 2 end`;
  return matching(db, query)
    .select(['symbol', 'name'])
    .orderBy(rank)
    .orderBy('symbol')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many symbols `searchSymbols` would find without a page. */
export async function countSymbols(db: DbOrTx, query: string): Promise<number> {
  const row = await matching(db, query).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

function matching(db: DbOrTx, query: string) {
  const q = query.toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const wordPrefix = `% ${escapeLike(q)}%`;
  return db.selectFrom('symbols').where((eb) =>
    eb.or([
      sql<boolean>`lower(symbol) like ${prefix} escape '\\'`,
      sql<boolean>`lower(name) like ${prefix} escape '\\'`,
      sql<boolean>`lower(name) like ${wordPrefix} escape '\\'`,
    ]),
  );
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
