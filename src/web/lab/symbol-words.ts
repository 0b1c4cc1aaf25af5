import type { SymbolEntry } from './types';

/** Where a ticker the store lacks would come from (`X-Market-Data-Provider` of `GET /api/symbols`). */
export type MarketDataProviderName = 'yahoo' | 'alpaca' | 'none';

const PROVIDER_NAMES: Readonly<Record<SymbolEntry['source'], string>> = { yahoo: 'Yahoo Finance', alpaca: 'Alpaca', demo: 'the demo data', import: 'an import' };
const SOURCE_WORDS: Readonly<Record<SymbolEntry['source'], string>> = { demo: 'demo data', import: 'imported data', yahoo: 'from Yahoo Finance', alpaca: 'from Alpaca' };

export function providerNameOf(header: string | null): MarketDataProviderName | undefined {
  return header === 'yahoo' || header === 'alpaca' || header === 'none' ? header : undefined;
}

/**
 * What a symbol field says of the ticker typed: its stored range and source ("SPX, demo data, 2000-01-03 to
 * 2020-04-17"), or where its bars would come from ("AAPL, not stored yet: fetched from Yahoo Finance when you run").
 * `entry` is the search's row for exactly this ticker, if any; `provider` undefined while not yet known. `purpose`
 * `order` (the Trade page): an order fills at a stored close and fetches nothing, so a ticker not stored is said to
 * need its bars fetched first.
 */
export function symbolStatus(
  typed: string,
  entry: SymbolEntry | undefined,
  provider: MarketDataProviderName | undefined,
  purpose: 'backtest' | 'order' = 'backtest',
): string | undefined {
  const symbol = typed.trim().toUpperCase();
  if (symbol === '') return undefined;
  if (entry?.stored) {
    const range = entry.first_date && entry.last_date ? `${entry.first_date} to ${entry.last_date}` : 'no bars stored';
    return `${symbol}, ${SOURCE_WORDS[entry.source]}, ${range}`;
  }
  const from = entry ? entry.source : provider;
  if (from === undefined) return undefined;
  if (from === 'none') return `${symbol}, not stored: this server fetches no market data, so it has no prices for it`;
  if (purpose === 'order') return `${symbol}, not stored yet: a market order fills at ${PROVIDER_NAMES[from]}'s delayed price and stores its bars`;
  return `${symbol}, not stored yet: fetched from ${PROVIDER_NAMES[from]} when you run${entry ? '' : ', if it knows the ticker'}`;
}

/** Calendar days, both ends included, `YYYY-MM-DD`. */
export interface DayRange {
  readonly from: string;
  readonly to: string;
}

/**
 * The sentence above a result whose period the data clips ("You asked for 2019-01-01 to 2024-12-31; the data ends
 * 2020-04-17."), or undefined when the data covers what was asked. Judged by each symbol's stored range (`stored`),
 * so a period starting on a holiday is not called clipped; without any range known, by the bars the run used.
 */
export function clippedPeriodNotice(asked: DayRange, used: DayRange, stored: readonly SymbolEntry[]): string | undefined {
  const said = `You asked for ${asked.from} to ${asked.to}`;
  const ranged = stored.filter((entry) => entry.first_date && entry.last_date);
  if (ranged.length === 0) {
    return used.from > asked.from || used.to < asked.to ? `${said}; the bars used run from ${used.from} to ${used.to}.` : undefined;
  }
  const clauses = ranged.flatMap((entry) => {
    const starts = asked.from < entry.first_date! ? `starts ${entry.first_date}` : undefined;
    const ends = asked.to > entry.last_date! ? `ends ${entry.last_date}` : undefined;
    const clause = starts && ends ? `${starts} and ${ends}` : (starts ?? ends);
    if (clause === undefined) return [];
    return [ranged.length === 1 ? `the data ${clause}` : `${entry.symbol}'s data ${clause}`];
  });
  return clauses.length === 0 ? undefined : `${said}; ${clauses.join('; ')}.`;
}
