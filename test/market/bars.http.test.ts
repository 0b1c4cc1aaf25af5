import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

const BARS = [
  { date: '2024-01-02', open: 470, high: 475, low: 468, close: 472, volume: 1000 },
  { date: '2024-01-03', open: 472, high: 473.5, low: 466.25, close: 467, volume: 1100 },
  { date: '2024-01-04', open: 467, high: 470, low: 465, close: 469.75, volume: 900 },
];

describeEachDialect('GET /api/symbols/:symbol/bars', (db) => {
  let app: App;
  const clock = new ManualClock('2026-01-05T12:00:00.000Z');

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { clock });
    await storeBars(db().handle.db, clock, { symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', bars: BARS });
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string) => app.inject({ url });

  it('answers the stored bars of the period as columns, both ends included, any case of ticker', async () => {
    const response = await get('/api/symbols/spy/bars?start_date=2024-01-03&end_date=2024-01-04');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ symbol: 'SPY', dates: ['2024-01-03', '2024-01-04'], open: [472, 467], high: [473.5, 470], low: [466.25, 465], close: [467, 469.75] });
    expect((await get('/api/symbols/SPY/bars')).json().dates).toEqual(['2024-01-02', '2024-01-03', '2024-01-04']);
    expect((await get('/api/symbols/SPY/bars?start_date=2025-01-01')).json()).toMatchObject({ dates: [], close: [] });
  });

  it('refuses what is not a ticker, a date or a period, and a symbol not stored, as JSON', async () => {
    const cases: [string, number, string][] = [
      ['/api/symbols/S%20PY/bars', 400, 'invalid_symbol'],
      ['/api/symbols/SPY/bars?start_date=2024-1-3', 400, 'validation_failed'],
      ['/api/symbols/SPY/bars?start_date=2024-01-04&end_date=2024-01-03', 400, 'invalid_period'],
      ['/api/symbols/ZZZZ/bars', 404, 'unknown_symbol'],
    ];
    for (const [url, status, code] of cases) {
      const response = await get(url);
      expect([url, response.statusCode, response.json().error]).toEqual([url, status, code]);
    }
  });

  it('is in the OpenAPI document under market data', async () => {
    const spec = (await get('/openapi.json')).json();
    expect(spec.paths['/api/symbols/{symbol}/bars'].get.tags).toEqual(['market data']);
  });
});
