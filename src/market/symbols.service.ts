import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { BarsSource } from '../platform/db/schema.js';
import type { MarketDataProvider } from './market-data-provider.js';
import { ProviderOffers } from './provider-offers.js';
import { countSymbols, searchSymbols, storedAmong, type StoredSymbolRow } from './symbols.repo.js';

/** DESIGN's pagination: `limit` default 50, max 200; `offset` default 0; the total in `X-Total-Count`. */
export const SYMBOL_SEARCH_DEFAULT_LIMIT = 50;
export const SYMBOL_SEARCH_MAX_LIMIT = 200;

/**
 * One row of GET /api/symbols. A stored symbol says where its bars came from and the dates they span; one the
 * provider knows but the store lacks is `stored: false`, `source` the provider that fetches it at its first backtest.
 */
export interface SymbolEntry {
  readonly symbol: string;
  readonly name: string;
  readonly stored: boolean;
  readonly source: BarsSource;
  readonly first_date?: string;
  readonly last_date?: string;
}

export interface SymbolSearchAnswer {
  readonly symbols: SymbolEntry[];
  /** Stored matches and provider offers in all. */
  readonly total: number;
  /** Whether the provider's search took part: `offered`, `unavailable` (it failed) or `not_asked`. */
  readonly providerSearch: 'offered' | 'unavailable' | 'not_asked';
}

export interface SymbolSearch {
  find(query: { q?: string | undefined; limit?: number | undefined; offset?: number | undefined }): Promise<SymbolSearchAnswer>;
  /** Where a ticker the store lacks would come from: the provider's name, or `none` (stored bars only). */
  readonly provider: MarketDataProvider['source'] | 'none';
}

export interface SymbolSearchDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly logger: Pick<FastifyBaseLogger, 'warn'>;
  readonly provider: MarketDataProvider | null;
}

/**
 * GET /api/symbols: the stored matches (see `searchSymbols` for matching and order), then the tickers the provider's
 * search offers for the query that the stored matches do not hold (stored ones first, then those not stored, each in
 * the provider's order), paged as one list. The provider is asked only for a query of 2 characters or more, through a
 * short per-query cache (`ProviderOffers`); its failure leaves the stored matches answering.
 */
export function createSymbolSearch(deps: SymbolSearchDeps): SymbolSearch {
  const offers = new ProviderOffers(deps.provider?.searchSymbols, deps.clock, deps.logger);
  return {
    provider: deps.provider?.source ?? 'none',
    async find(query) {
      const q = (query.q ?? '').trim();
      const limit = query.limit ?? SYMBOL_SEARCH_DEFAULT_LIMIT;
      const offset = query.offset ?? 0;
      const [storedTotal, offer] = await Promise.all([countSymbols(deps.db, q), offers.for(q)]);
      const extra = offer.status === 'offered' ? await offeredBeyondStored(deps.db, q, offer.symbols, deps.provider!.source) : [];
      const stored = offset < storedTotal ? (await searchSymbols(deps.db, q, { limit, offset })).map(storedEntry) : [];
      const extraFrom = Math.max(0, offset - storedTotal);
      const symbols = [...stored, ...extra.slice(extraFrom, extraFrom + limit - stored.length)];
      return { symbols, total: storedTotal + extra.length, providerSearch: offer.status };
    },
  };
}

/** The provider's tickers the stored matches for `q` leave out: stored elsewhere (a name the store lacks) first, then not stored. */
async function offeredBeyondStored(db: Db, q: string, offered: readonly { symbol: string; name: string }[], source: BarsSource): Promise<SymbolEntry[]> {
  const stored = new Map((await storedAmong(db, offered.map((entry) => entry.symbol), q)).map((row) => [row.symbol, row]));
  const storedElsewhere: SymbolEntry[] = [];
  const notStored: SymbolEntry[] = [];
  const seen = new Set<string>();
  for (const entry of offered) {
    if (seen.has(entry.symbol)) continue;
    seen.add(entry.symbol);
    const row = stored.get(entry.symbol);
    if (row === undefined) notStored.push({ symbol: entry.symbol, name: entry.name, stored: false, source });
    else if (!row.matches) storedElsewhere.push(storedEntry(row));
  }
  return [...storedElsewhere, ...notStored];
}

function storedEntry(row: StoredSymbolRow): SymbolEntry {
  const range = row.first_date !== null && row.last_date !== null ? { first_date: row.first_date, last_date: row.last_date } : {};
  return { symbol: row.symbol, name: row.name, stored: true, source: row.source, ...range };
}
