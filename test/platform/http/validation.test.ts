import { afterAll, beforeAll, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { App } from '../../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';

/**
 * Request validation as routes use it: shared schemas (`app.addSchema`) resolve by `$ref`, JSON bodies
 * are taken as sent, and query strings are coerced to the schema's types.
 */
describeEachDialect('request validation', (db) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    app.addSchema(
      Type.Object(
        { symbol: Type.String({ pattern: '^[A-Z]{1,5}$' }), qty: Type.Integer({ minimum: 1 }) },
        { $id: 'FixtureOrder', additionalProperties: false },
      ),
    );
    app.post('/fixture/orders', { schema: { body: { $ref: 'FixtureOrder#' } } }, async (request) => request.body);
    app.get(
      '/fixture/orders',
      { schema: { querystring: Type.Object({ limit: Type.Integer({ minimum: 1 }), open: Type.Boolean() }) } },
      async (request) => request.query,
    );
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const post = (payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/fixture/orders',
      payload: JSON.stringify(payload),
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    });

  it('validates a body against a shared schema named by $ref', async () => {
    const good = await post({ symbol: 'SPY', qty: 10 });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ symbol: 'SPY', qty: 10 });
  });

  it.each([
    [{ symbol: 'spy', qty: 10 }, 'body.symbol'],
    [{ symbol: 'SPY', qty: '10' }, 'body.qty'],
    [{ symbol: 'SPY', qty: 10, side: 'buy' }, 'body.side'],
  ])('refuses %j by the shared schema, naming %s, without coercing', async (payload, field) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      details: expect.arrayContaining([expect.objectContaining({ field })]),
    });
  });

  it('reports every violation, not only the first', async () => {
    const response = await post({ symbol: 'spy', qty: 0 });
    expect(response.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['body.qty', 'body.symbol']);
  });

  it('coerces query strings to the schema types', async () => {
    const response = await app.inject({ url: '/fixture/orders?limit=5&open=true' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ limit: 5, open: true });
    expect((await app.inject({ url: '/fixture/orders?limit=five&open=true' })).json()).toMatchObject({
      error: 'validation_failed',
      details: [{ field: 'querystring.limit' }],
    });
  });

  // PostgreSQL text cannot hold U+0000; refusing it before any route runs keeps both dialects alike.
  it.each([
    [{ symbol: 'SP\u0000Y', qty: 1 }, 'body.symbol'],
    [{ symbol: 'SPY', qty: 1, notes: ['ok', 'x\u0000'] }, 'body.notes[1]'],
  ])('refuses a NUL character in the body (%j), naming %s', async (payload, field) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field }] });
  });

  it('refuses a NUL character in a query string', async () => {
    const response = await app.inject({ url: '/fixture/orders?limit=5&open=true&note=a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field: 'querystring.note' }] });
  });

  it('walks a body nested 100,000 deep without overflowing (a 400 from the schema, not a 500)', async () => {
    const deep = `{"symbol":"SPY","qty":1,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await app.inject({ method: 'POST', url: '/fixture/orders', payload: deep, headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed' });
  });
});
