import type { Db } from '../platform/db/database.js';
import { searchSymbols, type SymbolRow } from './symbols.repo.js';

export const SYMBOL_SEARCH_DEFAULT_LIMIT = 20;
export const SYMBOL_SEARCH_MAX_LIMIT = 200;

/** GET /api/symbols: see `searchSymbols` for matching and order. */
export async function findSymbols(db: Db, query: { q?: string | undefined; limit?: number | undefined }): Promise<SymbolRow[]> {
  return searchSymbols(db, (query.q ?? '').trim(), query.limit ?? SYMBOL_SEARCH_DEFAULT_LIMIT);
}
