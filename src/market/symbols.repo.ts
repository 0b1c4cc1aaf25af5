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

/** A stored symbol as the symbol search lists it: where its bars came from and the dates they span. */
export interface StoredSymbolRow extends SymbolRow {
  readonly source: BarsSource;
  /** The first and last stored bar's dates (`YYYY-MM-DD`); null for a symbol without bars. */
  readonly first_date: string | null;
  readonly last_date: string | null;
}

/**
 * Symbols whose ticker starts with `query`, or one of whose name's words (split on spaces) does,
 * case-insensitively: exact ticker first, then ticker prefixes, then name matches, each alphabetical.
 */
export async function searchSymbols(db: DbOrTx, query: string, page: { limit: number; offset: number }): Promise<StoredSymbolRow[]> {
  const q = query.toLowerCase();
  const rank = sql<number>`case when lower(symbols.symbol) = ${q} then 0 when lower(symbols.symbol) like ${`${escapeLike(q)}%`} escape '\\' then 1 else 2 end`;
  return storedSymbols(db).where(matches(query))
    .orderBy(rank)
    .orderBy('symbols.symbol')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many symbols `searchSymbols` would find without a page. */
export async function countSymbols(db: DbOrTx, query: string): Promise<number> {
  const row = await db
    .selectFrom('symbols')
    .where(matches(query))
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Those of `symbols` the store holds, each saying whether `searchSymbols` finds it for `query`; in no order. */
export async function storedAmong(db: DbOrTx, symbols: readonly string[], query: string): Promise<(StoredSymbolRow & { matches: boolean })[]> {
  if (symbols.length === 0) return [];
  const rows = await storedSymbols(db).where('symbols.symbol', 'in', symbols)
    .select(sql<number>`case when ${matches(query)} then 1 else 0 end`.as('matches'))
    .execute();
  return rows.map((row) => ({ ...row, matches: Number(row.matches) === 1 }));
}

/**
 * Name, source and the first and last bar's dates; each date one index probe of `bars (symbol, date)`. Written as
 * `order by … limit 1` in plain SQL: on SQLite it took half the time of `min`/`max` built with Kysely's subquery
 * builder (74 against 123 µs for the demo set's search, whose bars-less form takes 43).
 */
function storedSymbols(db: DbOrTx) {
  return db.selectFrom('symbols').select([
    'symbols.symbol',
    'symbols.name',
    'symbols.bars_source as source',
    sql<string | null>`(select bars.date from bars where bars.symbol = symbols.symbol order by bars.date limit 1)`.as('first_date'),
    sql<string | null>`(select bars.date from bars where bars.symbol = symbols.symbol order by bars.date desc limit 1)`.as('last_date'),
  ]);
}

/** The match `searchSymbols` makes: ticker prefix, name prefix, or a prefix of a word of the name, any case. */
function matches(query: string) {
  const q = query.toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const wordPrefix = `% ${escapeLike(q)}%`;
  return sql<boolean>`(lower(symbols.symbol) like ${prefix} escape '\\' or lower(symbols.name) like ${prefix} escape '\\' or lower(symbols.name) like ${wordPrefix} escape '\\')`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
