import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';

/**
 * The edges of a request that used to be read loosely: numbers in a query string are plain decimals, a query string
 * names only known parameters and is well percent-encoded UTF-8, a wrong method on a known path is a 405 with
 * `Allow`, and a route that takes no body refuses one but accepts an empty body labelled as JSON.
 */
describeEachDialect('loose edges of a request', (db) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    // A route that takes no body, as any feature may add.
    app.post('/fixture/ping', async () => ({ pong: true }));
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it.each(['0x10', '1e1', '16.0', ' 16', '+16', '0b1', 'Infinity', ''])('refuses limit=%j: numbers in a query string are plain decimals', async (limit) => {
    const response = await get(`/api/symbols?limit=${encodeURIComponent(limit)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field: 'querystring.limit' }] });
  });

  it('takes a plain decimal limit', async () => {
    expect((await get('/api/symbols?limit=16')).statusCode).toBe(200);
    expect((await get('/api/symbols?limit=016&offset=0')).statusCode).toBe(200);
  });

  it.each([
    ['limit[]=1', 'querystring.limit[]'],
    ['limit=1&sort=name', 'querystring.sort'],
  ])('refuses an unknown query parameter (%s)', async (query, field) => {
    const response = await get(`/api/symbols?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field }] });
  });

  it.each(['q=%zz', 'q=%', 'q=a%2', 'q=%FF', 'q=%ED%A0%80', 'q%zz=1'])('refuses a query string that is not percent-encoded UTF-8 (%s)', async (query) => {
    const response = await get(`/api/symbols?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'bad_request', message: expect.stringMatching(/query string/) });
  });

  it('takes a well-encoded query string', async () => {
    expect((await get('/api/symbols?q=%C3%A9t%C3%A9+x&limit=5')).statusCode).toBe(200);
  });

  it.each([
    ['DELETE', '/api/symbols', 'GET, HEAD'],
    ['GET', '/api/backtest', 'POST'],
    ['PUT', '/api/strategies/1', 'DELETE, GET, HEAD, PATCH'],
    ['POST', '/healthz', 'GET, HEAD'],
  ])('%s %s is a 405 with Allow: %s', async (method, url, allow) => {
    const response = await app.inject({ method: method as 'GET', url, headers: { origin: TEST_ORIGIN } });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toMatchObject({ error: 'method_not_allowed', message: expect.stringContaining(allow) });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an unknown path stays a 404', async () => {
    expect((await app.inject({ method: 'DELETE', url: '/api/nothing-here', headers: { origin: TEST_ORIGIN } })).statusCode).toBe(404);
    expect((await get('/api/nothing-here')).statusCode).toBe(404);
  });

  const post = (url: string, payload: string | undefined, contentType?: string) =>
    app.inject({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: { origin: TEST_ORIGIN, ...(contentType ? { 'content-type': contentType } : {}) },
    });

  it.each(['/fixture/ping', '/api/auth/login/options'])('%s takes no body: refuses one, accepts none, an empty JSON one and {}', async (url) => {
    for (const payload of ['{"a":1}', 'null', ' ']) {
      const refused = await post(url, payload, 'application/json');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'unexpected_body' });
    }
    expect((await post(url, 'a=1', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    expect((await post(url, undefined)).statusCode).toBe(200);
    expect((await post(url, '', 'application/json')).statusCode).toBe(200);
    expect((await post(url, '', 'application/json; charset=utf-8')).statusCode).toBe(200);
    expect((await post(url, '{}', 'application/json')).statusCode).toBe(200);
  });

  it('a route that takes a body still refuses an empty one', async () => {
    const response = await post('/api/backtest', '', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'malformed_json' });
  });
});
