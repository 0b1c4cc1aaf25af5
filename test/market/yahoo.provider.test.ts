import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseBarsCsv } from '../../src/market/csv-bars.js';
import { createYahooDailyBars, createYahooLatestPrice, type YahooDailyBars } from '../../src/market/yahoo.provider.js';
import { ManualClock } from '../helpers/clock.js';
import { startFakeYahoo, YAHOO_NOT_FOUND, yahooChart, yahooDay } from './fake-yahoo.js';

const quiet = { debug: () => {} };

describe('Yahoo Finance adapter: yahoo-finance2 chart() against a local server', () => {
  let fake: Awaited<ReturnType<typeof startFakeYahoo>>;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  let dailyBars: YahooDailyBars;

  beforeAll(async () => {
    fake = await startFakeYahoo();
    dailyBars = createYahooDailyBars({ config: { baseUrl: fake.url, timeoutMs: 300 }, clock, logger: quiet });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.seen.length = 0;
    clock.set('2026-01-05T15:00:00.000Z');
  });

  it('asks YAHOO_BASE_URL for the daily chart of the period, with no cookie or crumb, and dates bars by the exchange day', async () => {
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', [yahooDay('2025-12-30', 10), yahooDay('2025-12-31', 11), yahooDay('2026-01-02', 12)]) }));
    const bars = await dailyBars('AAPL', '2025-12-29', '2026-01-02');
    expect(bars).toEqual([
      { date: '2025-12-30', open: 9, high: 11, low: 8, close: 10, volume: 1_000_000 },
      { date: '2025-12-31', open: 10, high: 12, low: 9, close: 11, volume: 1_000_000 },
      { date: '2026-01-02', open: 11, high: 13, low: 10, close: 12, volume: 1_000_000 },
    ]);
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]).toMatchObject({
      path: '/v8/finance/chart/AAPL',
      query: { interval: '1d', period1: String(Date.parse('2025-12-29T00:00:00Z') / 1000), period2: String(Date.parse('2026-01-03T00:00:00Z') / 1000) },
    });
  });

  it('adjusts for splits and dividends exactly as the CSV import does with Adj Close', async () => {
    const day = { date: '2025-12-30', open: 401.5, high: 410.25, low: 399.75, close: 408, volume: 12345, adjclose: 102.37 };
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', [day]) }));
    const csv = `Date,Open,High,Low,Close,Adj Close,Volume\n2025-12-30,401.5,410.25,399.75,408,102.37,12345\n`;
    expect(await dailyBars('AAPL', '2025-12-29', '2025-12-31')).toEqual(parseBarsCsv(csv, 'same.csv').bars);
  });

  it('skips days with null prices and leaves out a session still trading until its close', async () => {
    const nullDay = { date: '2025-12-31', open: null, high: null, low: null, close: null, volume: null };
    const body = yahooChart('AAPL', [yahooDay('2025-12-30', 10), nullDay as never, yahooDay('2026-01-05', 12)], clock.now().toISOString());
    fake.answer(() => ({ status: 200, body }));
    expect((await dailyBars('AAPL', '2025-12-29', '2026-01-05')).map((bar) => bar.date)).toEqual(['2025-12-30']);
    clock.set('2026-01-05T21:00:00.000Z');
    expect((await dailyBars('AAPL', '2025-12-29', '2026-01-05')).map((bar) => bar.date)).toEqual(['2025-12-30', '2026-01-05']);
  });

  it.each([
    [{ status: 404, body: YAHOO_NOT_FOUND }, 404, 'unknown_symbol'],
    [{ status: 429, raw: 'Too Many Requests' }, 503, 'provider_rate_limited'],
    [{ status: 500, raw: 'oops' }, 502, 'provider_error'],
    [{ status: 200, raw: 'not json' }, 502, 'provider_bad_response'],
    [{ status: 200, body: { chart: { result: [{ meta: {} }], error: null } } }, 502, 'provider_bad_response'],
    ['hang' as const, 504, 'provider_timeout'],
  ])('maps Yahoo answering %j to %i %s', async (answer, status, code) => {
    fake.answer(() => answer);
    await expect(dailyBars('ZZZZ', '2025-12-29', '2026-01-02')).rejects.toMatchObject({ status, code });
  });

  it('is 502 provider_unreachable when nothing listens at YAHOO_BASE_URL', async () => {
    const gone = await startFakeYahoo();
    await gone.close();
    const unreachable = createYahooDailyBars({ config: { baseUrl: gone.url, timeoutMs: 300 }, clock, logger: quiet });
    await expect(unreachable('AAPL', '2025-12-29', '2026-01-02')).rejects.toMatchObject({ status: 502, code: 'provider_unreachable' });
  });

  it('latest price: the chart meta’s regularMarketPrice and regularMarketTime, asked over the last week; its errors as the bars', async () => {
    const latestPrice = createYahooLatestPrice({ config: { baseUrl: fake.url, timeoutMs: 300 }, clock, logger: quiet });
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', [yahooDay('2026-01-02', 12)], '2026-01-05T15:00:00Z', { price: 271.01, at: '2026-01-05T14:57:30Z' }) }));
    expect(await latestPrice('AAPL')).toEqual({ price: 271.01, at: '2026-01-05T14:57:30.000Z' });
    expect(fake.seen[0]).toMatchObject({ path: '/v8/finance/chart/AAPL', query: { interval: '1d', period1: String(Date.parse('2025-12-29T00:00:00Z') / 1000) } });
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', [], '2026-01-05T15:00:00Z', { price: 0, at: '2026-01-05T14:57:30Z' }) }));
    await expect(latestPrice('AAPL')).rejects.toMatchObject({ status: 502, code: 'provider_bad_response' });
    fake.answer(() => ({ status: 404, body: YAHOO_NOT_FOUND }));
    await expect(latestPrice('ZZZZ')).rejects.toMatchObject({ status: 404, code: 'unknown_symbol' });
  });
});
