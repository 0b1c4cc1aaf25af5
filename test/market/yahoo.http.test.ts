import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { importBarsFile } from '../../src/market/import-bars.js';
import { createMarketData } from '../../src/market/market-data.service.js';
import { marketDataProviderFor } from '../../src/market/market-data-provider.js';
import { MINUTE } from '../../src/platform/clock.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { startFakeYahoo, YAHOO_NOT_FOUND, yahooChart, yahooDay } from './fake-yahoo.js';

const DECEMBER = ['2025-12-29', '2025-12-30', '2025-12-31'].map((date, i) => yahooDay(date, 100 + i, (100 + i) / 4));

describeEachDialect('backtests on Yahoo Finance data fetched on demand', (database) => {
  let app: App;
  let fake: Awaited<ReturnType<typeof startFakeYahoo>>;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  const yahooEnv = () => ({ MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url, YAHOO_TIMEOUT_MS: '300' });
  const backtest = (body: Record<string, unknown>, on: App = app) =>
    on.inject({
      method: 'POST',
      url: '/api/backtest',
      payload: { symbol: 'AAPL', strategy: 'buy_and_hold', start_date: '2025-12-01', end_date: '2025-12-31', initial_capital: 10000, ...body },
    });

  beforeAll(async () => {
    fake = await startFakeYahoo();
    app = await buildTestApp(database().handle, { clock, env: yahooEnv() });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.seen.length = 0;
  });
  const storedCloses = async (symbol: string) =>
    (await database().handle.db.selectFrom('bars').select(['date', 'close']).where('symbol', '=', symbol).orderBy('date').execute()).map((bar) => [bar.date, Number(bar.close)]);

  it('serves the demo SPX as stored and never asks Yahoo, even for a period reaching past its last bar (2020-04-17)', async () => {
    expect(await loadDemoDataIfEmpty(database().handle.db, clock, app.log)).toBe(true);
    const demo = await storedCloses('SPX');
    // Were Yahoo asked, it would answer with its own SPX: these bars must never be merged into the demo index.
    fake.answer(() => ({ status: 200, body: yahooChart('SPX', [yahooDay('2020-04-20', 5000), yahooDay('2020-04-21', 5001)]) }));
    const response = await backtest({ symbol: 'SPX', start_date: '2020-01-02', end_date: '2020-06-30' });
    expect(response.statusCode).toBe(200);
    expect(response.json().dates.at(-1)).toBe('2020-04-17');
    expect(fake.seen).toHaveLength(0);
    expect(await storedCloses('SPX')).toEqual(demo);
  });

  it('serves an imported ticker as stored and never asks Yahoo to extend it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-yahoo-'));
    const file = path.join(dir, 'IMPT.csv');
    fs.writeFileSync(file, 'Date,Open,High,Low,Close,Adj Close,Volume\n2025-12-29,10,11,9,10,10,100\n2025-12-30,10,11,9,10.5,10.5,100\n');
    try {
      await importBarsFile(database().handle.db, clock, { file, symbol: 'IMPT', progressStream: { write: () => true } as unknown as NodeJS.WriteStream });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    fake.answer(() => ({ status: 200, body: yahooChart('IMPT', DECEMBER) }));
    const response = await backtest({ symbol: 'IMPT', end_date: '2026-01-05' });
    expect(response.statusCode).toBe(200);
    expect(response.json().dates).toEqual(['2025-12-29', '2025-12-30']);
    expect(fake.seen).toHaveLength(0);
  });

  it('tests start the app offline: with MARKET_DATA_PROVIDER=none nothing is asked, an unstored ticker is 404', async () => {
    expect(testConfig().marketDataProvider).toBe('none');
    const offline = await buildTestApp(database().handle, { clock, env: { YAHOO_BASE_URL: fake.url } });
    try {
      const response = await backtest({ symbol: 'OFFL' }, offline);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'unknown_symbol' });
      expect(fake.seen).toHaveLength(0);
    } finally {
      await offline.close();
    }
  });

  it('fetches an unstored ticker, stores it adjusted, and serves the next request inside 15 minutes from the store', async () => {
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', DECEMBER) }));
    const response = await backtest({});
    expect(response.statusCode).toBe(200);
    expect(response.json().dates).toEqual(['2025-12-29', '2025-12-30', '2025-12-31']);
    expect(fake.seen.map((request) => request.path)).toEqual(['/v8/finance/chart/AAPL']);
    const stored = await database().handle.db.selectFrom('bars').select(['date', 'close']).where('symbol', '=', 'AAPL').orderBy('date').execute();
    expect(stored.map((bar) => Number(bar.close))).toEqual([25, 25.25, 25.5]);

    expect((await backtest({ end_date: '2026-01-05' })).statusCode).toBe(200);
    expect(fake.seen).toHaveLength(1);
    expect((await app.inject({ url: '/api/symbols?q=aapl' })).json()).toEqual([
      { symbol: 'AAPL', name: 'AAPL', stored: true, source: 'yahoo', first_date: '2025-12-29', last_date: '2025-12-31' },
    ]);
  });

  it('refreshes a ticker Yahoo filled: a request past its last bar, 15 minutes on, asks Yahoo for the days after it', async () => {
    clock.advance(15 * MINUTE);
    fake.answer(() => ({ status: 200, body: yahooChart('AAPL', [yahooDay('2026-01-02', 104, 26)]) }));
    const response = await backtest({ end_date: '2026-01-05' });
    expect(response.statusCode).toBe(200);
    expect(response.json().dates).toEqual(['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-02']);
    expect(fake.seen.map((request) => request.path)).toEqual(['/v8/finance/chart/AAPL']);
    expect((await storedCloses('AAPL')).at(-1)).toEqual(['2026-01-02', 26]);
  });

  it('answers from the stored bars when Yahoo fails on a refresh past the last session', async () => {
    clock.advance(15 * MINUTE);
    fake.answer(() => ({ status: 500, raw: 'oops' }));
    const response = await backtest({ end_date: '2026-01-05' });
    expect(response.statusCode).toBe(200);
    expect(response.json().dates.at(-1)).toBe('2026-01-02');
    expect(fake.seen).toHaveLength(1);
  });

  it('never lets another provider refresh a ticker Yahoo filled (switching MARKET_DATA_PROVIDER to alpaca)', async () => {
    const alpaca = { source: 'alpaca' as const, realTime: true, dailyBars: vi.fn(async () => []), latestPrice: vi.fn(async () => ({ price: 1, at: '' })) };
    const marketData = createMarketData({ db: database().handle.db, clock, logger: app.log, provider: alpaca });
    const { series } = await marketData.barsFor('AAPL', '2025-12-01', '2026-01-05', 'sip');
    expect(series.dates.at(-1)).toBe('2026-01-02');
    expect(alpaca.dailyBars).not.toHaveBeenCalled();
  });

  it.each([
    [{ status: 404, body: YAHOO_NOT_FOUND }, 404, 'unknown_symbol'],
    [{ status: 429, raw: 'Too Many Requests' }, 503, 'provider_rate_limited'],
    ['hang' as const, 504, 'provider_timeout'],
  ])('answers Yahoo %j on an unstored ticker with %i %s', async (answer, status, error) => {
    fake.answer(() => answer);
    const response = await backtest({ symbol: 'NEWCO' });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error, message: expect.any(String) });
  });

  it('says a ticker Yahoo does not know in the same plain words as one missing offline, pointing to the symbol list', async () => {
    fake.answer(() => ({ status: 404, body: YAHOO_NOT_FOUND }));
    const response = await backtest({ symbol: 'NOSUCH' });
    expect(response.json()).toEqual({
      error: 'unknown_symbol',
      message: 'We have no prices for NOSUCH, and Yahoo Finance does not know it.',
      details: [{ field: 'body.symbol', message: 'is not a ticker Yahoo Finance knows; GET /api/symbols lists the symbols we have' }],
    });
  });

  it('asks Yahoo once when ten requests for an unstored ticker arrive together', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.answer(() => ({ status: 200, body: yahooChart('MSFT', DECEMBER) }));
    const marketData = createMarketData({
      db: database().handle.db,
      clock,
      logger: app.log,
      provider: marketDataProviderFor(testConfig(yahooEnv()), { clock, logger: app.log }),
    });
    const requests = Array.from({ length: 10 }, async () => {
      await held;
      return marketData.barsFor('MSFT', '2025-12-01', '2025-12-31', 'delayed_sip');
    });
    release();
    const answers = await Promise.all(requests);
    expect(fake.seen).toHaveLength(1);
    expect(answers.map((answer) => answer.series.dates.length)).toEqual(Array(10).fill(3));
  });
});
