import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { HttpClient } from '../../helpers/http-client.js';
import { createStrategy, FULL_STRATEGY, libraryUser, type LibraryUser } from '../../strategies/library-kit.js';

/**
 * A reply to a request that carried a cookie (a session's, whatever route it reaches) is `Cache-Control: no-store`,
 * so no browser or shared cache keeps a signed-in person's data; files of the web app keep their own caching.
 */
describeEachDialect('private replies are not cached', (db) => {
  let app: App;
  let user: LibraryUser;
  let strategyId: number;

  beforeAll(async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'tradelab-web-'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>tradelab</title>');
    writeFileSync(path.join(root, 'assets/app-1a2b.js'), 'console.log("app")');
    app = await buildTestApp(db().handle, { webRoot: root });
    user = await libraryUser(app, db().handle.db);
    strategyId = (await createStrategy(user, FULL_STRATEGY)).id;
  });

  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['GET', '/api/strategies'],
    ['GET', '/api/strategies/{id}'],
    ['GET', '/api/strategies/active'],
    ['POST', '/api/backtest/run'],
    ['POST', '/api/trading/compliance-check'],
    ['GET', '/api/trade-window/orders'],
    ['GET', '/api/strategies/999999'],
  ] as const)('signed in, %s %s answers no-store', async (method, url) => {
    const target = url.replace('{id}', String(strategyId));
    const body = method === 'POST' ? { strategy_id: strategyId, symbols: ['SPY'], symbol: 'SPY', qty: 1, side: 'buy', start_date: '2024-01-02', end_date: '2024-01-05', initial_capital: 1000 } : undefined;
    const response = await user.client.request(method, target, body);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('the catalogue without a session stays cacheable, and the web app’s files keep their caching with a cookie', async () => {
    const anonymous = await new HttpClient(app).get('/api/strategies');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['cache-control']).toBeUndefined();

    const asset = await user.client.get('/assets/app-1a2b.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await user.client.get('/library');
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
