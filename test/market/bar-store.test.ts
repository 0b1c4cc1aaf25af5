import { beforeEach, expect, it } from 'vitest';
import { BarSeriesCache } from '../../src/market/bar-series-cache.js';
import { sliceSeries, type Bar } from '../../src/market/bar-series.js';
import { loadDemoDataIfEmpty, storeBars } from '../../src/market/bar-store.service.js';
import { readBarsState } from '../../src/market/symbols.repo.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

const clock = new ManualClock();
const readBarsVersion = async (db: Parameters<typeof readBarsState>[0], symbol: string) => (await readBarsState(db, symbol))?.bars_version;
const quiet = { info: () => {} };

function days(count: number, start = Date.UTC(2010, 0, 1), price = 10): Bar[] {
  return Array.from({ length: count }, (_, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    open: price + i,
    high: price + i + 1,
    low: price + i - 1,
    close: price + i + 0.5,
    volume: 100 + i,
  }));
}

describeEachDialect('bar store', (db) => {
  beforeEach(async () => {
    await db().handle.db.deleteFrom('bars').execute();
    await db().handle.db.deleteFrom('symbols').execute();
  });

  it('upserts in batches: a re-import changes nothing and leaves the version alone; a changed bar raises it', async () => {
    const kysely = db().handle.db;
    const bars = days(2500);
    expect(await storeBars(kysely, clock, { symbol: 'ABC', name: 'Abc Corp', bars })).toEqual({ changed: 2500 });
    const version = await readBarsVersion(kysely, 'ABC');
    expect(await storeBars(kysely, clock, { symbol: 'ABC', bars })).toEqual({ changed: 0 });
    expect(await readBarsVersion(kysely, 'ABC')).toBe(version);

    const changed = bars.map((bar, i) => (i === 1700 ? { ...bar, close: bar.close + 0.25 } : bar));
    expect(await storeBars(kysely, clock, { symbol: 'ABC', bars: changed })).toEqual({ changed: 1 });
    expect(await readBarsVersion(kysely, 'ABC')).toBe(version! + 1);
    const stored = await kysely.selectFrom('bars').select(['close']).where('date', '=', bars[1700]!.date).executeTakeFirstOrThrow();
    expect(stored.close).toBe(bars[1700]!.close + 0.25);
    expect((await kysely.selectFrom('symbols').selectAll().executeTakeFirstOrThrow()).name).toBe('Abc Corp');
  });

  it('stores all of a file or nothing: a failure in a later batch leaves no bar and no symbol behind', async () => {
    const kysely = db().handle.db;
    const bars = days(1500);
    const broken = bars.map((bar, i) => (i === 1200 ? { ...bar, date: null as unknown as string } : bar));
    await expect(storeBars(kysely, clock, { symbol: 'BAD', bars: broken })).rejects.toThrow();
    expect(await kysely.selectFrom('bars').selectAll().execute()).toEqual([]);
    expect(await readBarsVersion(kysely, 'BAD')).toBeUndefined();
  });

  it('serves a series from memory until any process changes the bars, then reloads', async () => {
    const kysely = db().handle.db;
    await storeBars(kysely, clock, { symbol: 'ABC', bars: days(30) });
    const cache = new BarSeriesCache(kysely);
    const first = await cache.get('ABC');
    expect(first!.series.dates).toHaveLength(30);
    expect(await cache.get('ABC')).toBe(first);

    // Another process (its own connection) appends and corrects bars.
    const other = db().openAnother();
    await storeBars(other.db, clock, { symbol: 'ABC', bars: days(31).map((b) => ({ ...b, close: b.close + 1 })) });
    const second = await cache.get('ABC');
    expect(second).not.toBe(first);
    expect(second!.series.dates).toHaveLength(31);
    expect(second!.series.close[0]).toBe(11.5);
    expect(await cache.get('NOPE')).toBeUndefined();
  });

  it('keeps at most its capacity of symbols, least recently used out first', async () => {
    const kysely = db().handle.db;
    for (const symbol of ['A', 'B', 'C']) await storeBars(kysely, clock, { symbol, bars: days(3) });
    const cache = new BarSeriesCache(kysely, 2);
    const a = await cache.get('A');
    await cache.get('B');
    expect(await cache.get('A')).toBe(a);
    await cache.get('C');
    expect(cache.size).toBe(2);
    expect(await cache.get('A')).toBe(a);
  });

  it('slices a date range by binary search, sharing the price memory', async () => {
    const kysely = db().handle.db;
    await storeBars(kysely, clock, { symbol: 'ABC', bars: days(10) });
    const { series } = (await new BarSeriesCache(kysely).get('ABC'))!;
    const slice = sliceSeries(series, '2010-01-03', '2010-01-05');
    expect(slice.dates).toEqual(['2010-01-03', '2010-01-04', '2010-01-05']);
    expect(slice.close.buffer).toBe(series.close.buffer);
    expect(Array.from(slice.close)).toEqual([12.5, 13.5, 14.5]);
    expect(sliceSeries(series, '2009-01-01', '2009-12-31').dates).toEqual([]);
    expect(sliceSeries(series, '2010-01-10', '2030-01-01').dates).toEqual(['2010-01-10']);
    expect(sliceSeries(series, '2000-01-01', '2030-01-01')).toBe(series);
  });

  it('loads the demo S&P 500 series into an empty store, once', async () => {
    const kysely = db().handle.db;
    expect(await loadDemoDataIfEmpty(kysely, clock, quiet)).toBe(true);
    expect(await loadDemoDataIfEmpty(kysely, clock, quiet)).toBe(false);
    const symbol = await kysely.selectFrom('symbols').select(['symbol', 'name', 'bars_source']).execute();
    expect(symbol).toEqual([{ symbol: 'SPX', name: 'S&P 500 Index', bars_source: 'demo' }]);
    const { count } = await kysely.selectFrom('bars').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(5105);
  });

  it('leaves a store that already holds bars alone', async () => {
    await storeBars(db().handle.db, clock, { symbol: 'ABC', bars: days(1) });
    expect(await loadDemoDataIfEmpty(db().handle.db, clock, quiet)).toBe(false);
  });

  const sourceOf = async (symbol: string) =>
    (await db().handle.db.selectFrom('symbols').select('bars_source').where('symbol', '=', symbol).executeTakeFirstOrThrow()).bars_source;
  const storedDates = async (symbol: string) =>
    (await db().handle.db.selectFrom('bars').select('date').where('symbol', '=', symbol).orderBy('date').execute()).map((bar) => bar.date);

  it('records where a symbol\'s bars came from; a provider never writes into a symbol it did not fill', async () => {
    const kysely = db().handle.db;
    await storeBars(kysely, clock, { symbol: 'ABC', bars: days(10), source: 'import' });
    const version = await readBarsVersion(kysely, 'ABC');
    expect(await storeBars(kysely, clock, { symbol: 'ABC', bars: days(12, Date.UTC(2010, 0, 5), 50), source: 'yahoo' })).toEqual({ changed: 0 });
    expect(await sourceOf('ABC')).toBe('import');
    expect(await storedDates('ABC')).toEqual(days(10).map((bar) => bar.date));
    expect(await readBarsVersion(kysely, 'ABC')).toBe(version);

    await storeBars(kysely, clock, { symbol: 'YHO', bars: days(3), source: 'yahoo' });
    expect(await storeBars(kysely, clock, { symbol: 'YHO', bars: days(1, Date.UTC(2010, 0, 4)), source: 'alpaca' })).toEqual({ changed: 0 });
    expect(await storeBars(kysely, clock, { symbol: 'YHO', bars: days(1, Date.UTC(2010, 0, 4)), source: 'yahoo' })).toEqual({ changed: 1 });
    expect(await sourceOf('YHO')).toBe('yahoo');
  });

  it('an import over a symbol a provider filled replaces its bars and its source, never merges them', async () => {
    const kysely = db().handle.db;
    await storeBars(kysely, clock, { symbol: 'ABC', bars: days(10), source: 'yahoo' });
    const version = await readBarsVersion(kysely, 'ABC');
    const imported = days(3, Date.UTC(2012, 0, 1), 70);
    expect(await storeBars(kysely, clock, { symbol: 'ABC', bars: imported, source: 'import' })).toEqual({ changed: 3, replaced: 'yahoo' });
    expect(await sourceOf('ABC')).toBe('import');
    expect(await storedDates('ABC')).toEqual(imported.map((bar) => bar.date));
    expect(await readBarsVersion(kysely, 'ABC')).toBe(version! + 1);
  });
});
