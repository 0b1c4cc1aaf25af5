import type { Db } from '../platform/db/database.js';
import type { BarsSource } from '../platform/db/schema.js';
import { barSeriesFromBars, SeriesSlices, type BarSeries } from './bar-series.js';
import { readBars } from './bars.repo.js';
import { readBarsState } from './symbols.repo.js';

export interface CachedSeries {
  readonly symbol: string;
  readonly version: number;
  /** Where the bars came from; a change of source raises the version, so it is as current as the series. */
  readonly source: BarsSource;
  readonly series: BarSeries;
  /** The periods of `series` recently asked for, each one object while kept. */
  readonly slices: SeriesSlices;
}

/**
 * Each process keeps the whole series of recently used symbols in memory, keyed by
 * `symbols.bars_version`. Every read first looks that version up (one primary-key read); any writer,
 * in any process, raises it in the transaction that changes bars, so a stale copy is never served.
 * At most `capacity` symbols are kept (least recently used leave first); concurrent loads of one
 * symbol share one query.
 */
export class BarSeriesCache {
  readonly #entries = new Map<string, CachedSeries>();
  readonly #loading = new Map<string, Promise<CachedSeries>>();

  constructor(
    private readonly db: Db,
    private readonly capacity = 64,
  ) {}

  /** The symbol's current series, or `undefined` when the symbol is not known. */
  async get(symbol: string): Promise<CachedSeries | undefined> {
    const state = await readBarsState(this.db, symbol);
    if (state === undefined) return undefined;
    const version = state.bars_version;
    const cached = this.#entries.get(symbol);
    if (cached && cached.version === version) {
      this.#entries.delete(symbol);
      this.#entries.set(symbol, cached);
      return cached;
    }
    const key = `${symbol}\u0000${version}`;
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#load(symbol, version, state.bars_source).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /** Drops this process's copy (after this process wrote bars; other processes notice the version). */
  forget(symbol: string): void {
    this.#entries.delete(symbol);
  }

  get size(): number {
    return this.#entries.size;
  }

  async #load(symbol: string, version: number, source: BarsSource): Promise<CachedSeries> {
    // The version is read before the bars: a write committed in between makes the copy newer than its
    // label, never older, and the next read sees the higher version and reloads.
    const series = barSeriesFromBars(await readBars(this.db, symbol));
    const entry: CachedSeries = { symbol, version, source, series, slices: new SeriesSlices(series) };
    const current = this.#entries.get(symbol);
    if (!current || current.version <= version) {
      this.#entries.delete(symbol);
      this.#entries.set(symbol, entry);
      while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    }
    return entry;
  }
}
