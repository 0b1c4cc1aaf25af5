import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { App } from '../../../src/app.js';
import { Conflict, Forbidden, Gone, NotFound, RateLimited, Unprocessable } from '../../../src/platform/errors.js';
import { buildTestApp, capturingLogger, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';

/**
 * The error pipeline, seen from a client: every class of bad request gets its status and a
 * `{error, message}` body, no stack trace, and nothing is written. A small fixture route that stores
 * a symbol stands in for any feature route.
 */
describeEachDialect('HTTP errors', (db) => {
  let app: App;
  const log = capturingLogger();

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { env: { BODY_LIMIT_BYTES: '2048' }, logger: log.logger });
    const Symbol = Type.Object(
      { symbol: Type.String({ pattern: '^[A-Z]{1,5}$' }), name: Type.String({ minLength: 1 }) },
      { additionalProperties: false },
    );
    app.post('/fixture/symbols', { schema: { body: Symbol } }, async (request, reply) => {
      const body = request.body as { symbol: string; name: string };
      await app.platform.db
        .insertInto('symbols')
        .values({ ...body, created_at: new Date().toISOString() })
        .execute();
      return reply.status(201).send(body);
    });
    app.get('/fixture/boom', async () => {
      throw new Error('connection string postgres://secret@db leaked?');
    });
    const refusals = {
      conflict: new Conflict('already_exists', 'That already exists.'),
      forbidden: new Forbidden('forbidden', 'Admins only.'),
      gone: new Gone('link_expired', 'That link has expired.'),
      missing: new NotFound('not_found', 'No such strategy.'),
      limited: new RateLimited('rate_limited', 'Too many requests; try again later.', 42),
      refused: new Unprocessable('compliance_violation', 'The order breaks the rules.', [{ message: 'symbol not allowed' }]),
    } as const;
    app.get<{ Params: { kind: keyof typeof refusals } }>('/fixture/refuse/:kind', async (request) => {
      throw refusals[request.params.kind];
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(async () => {
    await app.platform.db.deleteFrom('symbols').execute();
  });

  const post = (payload: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/fixture/symbols',
      payload,
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...headers },
    });

  async function storedSymbols(): Promise<number> {
    return (await app.platform.db.selectFrom('symbols').selectAll().execute()).length;
  }

  it('stores a good request (the baseline the refusals are measured against)', async () => {
    const response = await post(JSON.stringify({ symbol: 'SPY', name: 'SPDR S&P 500' }));
    expect(response.statusCode).toBe(201);
    expect(await storedSymbols()).toBe(1);
  });

  it.each([
    ['unknown route', 'GET', '/api/nope', undefined, {}, 404, 'not_found'],
    ['malformed JSON', 'POST', '/fixture/symbols', '{"symbol": "SPY",', {}, 400, 'malformed_json'],
    ['empty JSON body', 'POST', '/fixture/symbols', '', {}, 400, 'malformed_json'],
    ['body over the limit', 'POST', '/fixture/symbols', JSON.stringify({ symbol: 'SPY', name: 'x'.repeat(4000) }), {}, 413, 'payload_too_large'],
    ['wrong content type', 'POST', '/fixture/symbols', 'symbol=SPY', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
    ['plain text body', 'POST', '/fixture/symbols', JSON.stringify({ symbol: 'SPY', name: 'n' }), { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
    ['malformed URL', 'GET', '/api/%E0%A4%A', undefined, {}, 400, 'bad_request'],
    ['missing Origin', 'POST', '/fixture/symbols', JSON.stringify({ symbol: 'SPY', name: 'n' }), { origin: '' }, 403, 'origin_mismatch'],
    ['foreign Origin', 'POST', '/fixture/symbols', JSON.stringify({ symbol: 'SPY', name: 'n' }), { origin: 'https://evil.example' }, 403, 'origin_mismatch'],
    ['foreign Origin, unknown route', 'POST', '/api/nope', '{}', { origin: 'https://evil.example' }, 403, 'origin_mismatch'],
  ] as const)('%s → %s %s, nothing written', async (_name, method, url, payload, headers, status, error) => {
    const response = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...headers },
    });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(body).toMatchObject({ error });
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    expect(await storedSymbols()).toBe(0);
  });

  it.each([
    [{ symbol: 'spy', name: 'lower case' }, 'body.symbol'],
    [{ name: 'no symbol' }, 'body.symbol'],
    [{ symbol: 'SPY', name: 'x', extra: true }, 'body.extra'],
    [{ symbol: 'SPY', name: 42 }, 'body.name'],
  ])('schema violation %j → 400 naming %s, nothing written', async (payload, field) => {
    const response = await post(JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('validation_failed');
    expect(body.message).toContain(field);
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await storedSymbols()).toBe(0);
  });

  it.each([
    ['conflict', 409, 'already_exists'],
    ['forbidden', 403, 'forbidden'],
    ['gone', 410, 'link_expired'],
    ['missing', 404, 'not_found'],
    ['limited', 429, 'rate_limited'],
    ['refused', 422, 'compliance_violation'],
  ])('a domain error (%s) maps to %i %s', async (kind, status, error) => {
    const response = await app.inject({ method: 'GET', url: `/fixture/refuse/${kind}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error, message: expect.any(String) });
    if (status === 429) expect(response.headers['retry-after']).toBe('42');
    if (status === 422) expect(response.json().details).toEqual([{ message: 'symbol not allowed' }]);
  });

  it('answers an unexpected failure with a 500 that reveals nothing but the request id, and logs it', async () => {
    const response = await app.inject({ method: 'GET', url: '/fixture/boom' });
    expect(response.statusCode).toBe(500);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json()).toEqual({
      error: 'internal_error',
      message: `Something went wrong on our side. Quote request id ${requestId} if you report it.`,
    });
    expect(response.body).not.toContain('postgres://');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
    const logged = log.lines().find((line) => line.reqId === requestId && line.level === 50);
    expect(logged).toMatchObject({ msg: 'unhandled error', err: { message: expect.stringContaining('leaked?') } });
  });

  it('answers a URL Fastify cannot decode in our error shape, with the security headers and a request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'bad_request', message: expect.stringContaining('URL') });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('lets safe methods through without an Origin', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
  });
});
