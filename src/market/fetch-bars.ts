import cliProgress from 'cli-progress';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { BarsSource } from '../platform/db/schema.js';
import { AppError, Conflict, NotFound } from '../platform/errors.js';
import { storeBars, type BarsStoredListener } from './bar-store.service.js';
import { latestStoredBar, storedRange } from './bars.repo.js';
import type { MarketDataProvider } from './market-data-provider.js';
import { PROVIDER_HISTORY_START } from './market-data.service.js';
import { assertTicker, nextDay } from './market-terms.js';
import { readBarsState } from './symbols.repo.js';

export interface FetchBarsOptions {
  readonly symbols: readonly string[];
  /** `YYYY-MM-DD`: fetch from this date. Default: the day after the last stored bar, or all the provider has since 1990. */
  readonly from?: string | undefined;
  /** Where progress goes: a bar when it is a terminal, a plain line per symbol otherwise. */
  readonly progressStream?: NodeJS.WriteStream;
  /** Called after a symbol's fetched bars changed the store (the CLI wires the trade window's resting-order fills). */
  readonly onBarsStored?: BarsStoredListener;
}

/** One symbol's outcome: what is stored of it now, or why it was not fetched. */
export type FetchBarsOutcome =
  | { readonly symbol: string; readonly ok: true; readonly bars: number; readonly changed: number; readonly from: string; readonly to: string; readonly source: BarsSource }
  | { readonly symbol: string; readonly ok: false; readonly error: string; readonly message: string };

/** How a source is named to the operator. */
export const SOURCE_NAMES: Readonly<Record<BarsSource, string>> = { yahoo: 'Yahoo Finance', alpaca: 'Alpaca', demo: 'the demo data', import: 'an import' };

/**
 * `tradelab fetch-bars`: fills the store from `provider` for each symbol in turn, as a request for a symbol the store
 * lacks would (the same adjustment, the same one source per symbol), so the data is there before anyone asks. A
 * symbol's failure (a ticker the provider does not know, the provider down, a symbol the demo or an import filled)
 * is its outcome; the others are still fetched.
 */
export async function fetchBarsInto(db: Db, clock: Clock, provider: MarketDataProvider, options: FetchBarsOptions): Promise<FetchBarsOutcome[]> {
  const stream = options.progressStream ?? process.stderr;
  const total = options.symbols.length;
  const bar = stream.isTTY ? new cliProgress.SingleBar({ stream, format: `{bar} {value}/{total} symbols {symbol}` }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(total, 0, { symbol: '' });
  const outcomes: FetchBarsOutcome[] = [];
  try {
    for (const symbol of options.symbols) {
      bar?.update({ symbol });
      outcomes.push(await fetchOne(db, clock, provider, symbol, options));
      if (bar) bar.increment();
      else stream.write(`${symbol}: ${outcomes.length}/${total} symbols\n`);
    }
  } finally {
    bar?.stop();
  }
  return outcomes;
}

async function fetchOne(db: Db, clock: Clock, provider: MarketDataProvider, symbol: string, options: FetchBarsOptions): Promise<FetchBarsOutcome> {
  try {
    assertTicker(symbol);
    const state = await readBarsState(db, symbol);
    if (state && state.bars_source !== provider.source) {
      throw new Conflict(
        'other_source',
        `${symbol}'s bars come from ${SOURCE_NAMES[state.bars_source]}, and a provider refreshes only the symbols it filled; \`tradelab import-bars\` replaces them.`,
      );
    }
    const last = state ? (await latestStoredBar(db, symbol))?.date : undefined;
    const start = options.from ?? (last === undefined ? PROVIDER_HISTORY_START : nextDay(last));
    // The provider leaves out a session still trading, so asking through today (UTC, never before New York's) is safe.
    const today = clock.now().toISOString().slice(0, 10);
    let changed = 0;
    if (start <= today) {
      const bars = await provider.dailyBars(symbol, start, today, 'delayed_sip');
      if (bars.length > 0) changed = (await storeBars(db, clock, { symbol, bars, source: provider.source })).changed;
    }
    if (changed > 0) await options.onBarsStored?.(symbol);
    const range = await storedRange(db, symbol);
    if (range.first === null || range.last === null) {
      throw new NotFound('unknown_symbol', `${SOURCE_NAMES[provider.source]} has no daily bars of ${symbol} from ${start}.`);
    }
    return { symbol, ok: true, bars: range.bars, changed, from: range.first, to: range.last, source: provider.source };
  } catch (error) {
    if (error instanceof AppError) return { symbol, ok: false, error: error.code, message: error.message };
    throw error;
  }
}
