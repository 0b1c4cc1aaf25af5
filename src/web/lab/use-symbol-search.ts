import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { providerNameOf, type MarketDataProviderName } from './symbol-words';
import type { SymbolEntry } from './types';

/** Keystrokes closer together than this make one search. */
const SEARCH_DELAY_MS = 250;
const SUGGESTIONS = 10;

export interface SymbolSearchState {
  /** The query the entries answer (it may lag behind what is typed). */
  readonly answered: string | undefined;
  readonly entries: readonly SymbolEntry[];
  /** Where a ticker not stored would come from; undefined until the server has said. */
  readonly provider: MarketDataProviderName | undefined;
}

/**
 * `GET /api/symbols?q=` for what is typed, debounced: stored symbols and the tickers the provider offers. A failed
 * search leaves the last answer: suggestions are a convenience and the run reports real problems. A new `refresh`
 * value searches again (after a run, which may have fetched the ticker).
 */
export function useSymbolSearch(query: string, refresh?: unknown): SymbolSearchState {
  const [state, setState] = useState<SymbolSearchState>({ answered: undefined, entries: [], provider: undefined });
  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const { data, headers } = await api.getWithHeaders<SymbolEntry[]>(`/api/symbols?q=${encodeURIComponent(query)}&limit=${SUGGESTIONS}`);
        if (current) setState({ answered: query, entries: data, provider: providerNameOf(headers.get('x-market-data-provider')) });
      } catch {
        // The last answer stays.
      }
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, refresh]);
  return state;
}

/** The stored symbol `symbol` exactly, if the store holds it (the lab's notice of a clipped period asks after a run). */
export async function storedSymbol(symbol: string): Promise<SymbolEntry | undefined> {
  const found = await api.get<SymbolEntry[]>(`/api/symbols?q=${encodeURIComponent(symbol)}&limit=1`);
  return found.find((entry) => entry.symbol === symbol && entry.stored);
}
