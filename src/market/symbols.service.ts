import type { Db } from '../platform/db/database.js';
import { countSymbols, searchSymbols, type SymbolRow } from './symbols.repo.js';

/** DESIGN's pagination: `limit` default 50, max 200; `offset` default 0; the total in `X-Total-Count`. */
export const SYMBOL_SEARCH_DEFAULT_LIMIT = 50;
export const SYMBOL_SEARCH_MAX_LIMIT = 200;

/** GET /api/symbols: one page of matches and how many there are in all (see `searchSymbols` for matching and order). */
export async function findSymbols(
  db: Db,
  query: { q?: string | undefined; limit?: number | undefined; offset?: number | undefined },
): Promise<{ symbols: SymbolRow[]; total: number }> {
  const q = (query.q ?? '').trim();
  const page = { limit: query.limit ?? SYMBOL_SEARCH_DEFAULT_LIMIT, offset: query.offset ?? 0 };
  const [symbols, total] = await Promise.all([searchSymbols(db, q, page), countSymbols(db, q)]);
  return { symbols, total };
}
