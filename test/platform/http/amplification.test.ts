import { afterAll, beforeAll, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { HttpClient } from '../../helpers/http-client.js';

/**
 * Hostile bodies cost the server little and get a small answer: a validation refusal lists at most ten issues,
 * validation of a huge body stops at its first problem, schemas are bounded by default, and refused requests
 * count toward the route's rate limit, and a body of more than 20,000 values is refused before it is parsed. The
 * probe of issue 19 saw 20 MB replies and 1–2.4 s per request here. Cost is measured in this process's CPU time
 * (the server runs in it, through `inject`), which other load on the machine does not inflate as it does wall time.
 */
const MAX_REPLY_BYTES = 4 * 1024;
const MAX_CPU_MILLISECONDS = 300;

describeEachDialect('validation replies stay small', (db) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { env: { LEGACY_BACKTEST_RATE_LIMIT: '1000' } });
    // A route whose schema bounds nothing itself: the platform's defaults must.
    app.post(
      '/fixture/unbounded',
      { schema: { body: Type.Object({ items: Type.Optional(Type.Array(Type.Integer())), open: Type.Optional(Type.Object({})), text: Type.Optional(Type.String()) }) } },
      async () => ({ ok: true }),
    );
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const period = { symbol: 'SPY', start_date: '2020-01-01', end_date: '2020-12-31', initial_capital: 10_000 };

  async function timedPost(client: HttpClient, url: string, payload: string) {
    const started = process.cpuUsage();
    const response = await client.post(url, payload);
    const spent = process.cpuUsage(started);
    return { response, milliseconds: (spent.user + spent.system) / 1000 };
  }

  const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 1]));

  it.each([
    ['200,000 strategies on compare-strategies', '/api/compare-strategies', { ...period, strategies: Array.from({ length: 200_000 }, () => 1) }, 'too_many_values'],
    ['200,000 strategy_params on backtest', '/api/backtest', { ...period, strategy: 'sma_crossover', strategy_params: Array.from({ length: 200_000 }, () => 1) }, 'too_many_values'],
    ['95,000 unknown keys on backtest', '/api/backtest', { ...period, strategy: 'sma_crossover', ...keys(95_000) }, 'too_many_values'],
    ['19,000 strategies on compare-strategies', '/api/compare-strategies', { ...period, strategies: Array.from({ length: 19_000 }, () => 1) }, 'validation_failed'],
    ['19,000 strategy_params on backtest', '/api/backtest', { ...period, strategy: 'sma_crossover', strategy_params: Array.from({ length: 19_000 }, () => ({ value: 'x' })) }, 'validation_failed'],
    ['19,000 unknown keys on backtest', '/api/backtest', { ...period, strategy: 'sma_crossover', ...keys(19_000) }, 'validation_failed'],
  ])('%s: a 400 under 4 KB, answered fast', async (_name, url, body, error) => {
    const payload = JSON.stringify(body);
    expect(payload.length).toBeGreaterThan(38_000);
    const { response, milliseconds } = await timedPost(new HttpClient(app), url, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error, message: expect.any(String) });
    expect(response.rawPayload.length).toBeLessThan(MAX_REPLY_BYTES);
    expect(milliseconds).toBeLessThan(MAX_CPU_MILLISECONDS);
  });

  it('bounds arrays, objects and strings by default where a schema does not', async () => {
    const client = new HttpClient(app);
    const huge = [
      { items: Array.from({ length: 19_000 }, () => 'x') },
      { open: keys(19_000) },
      { text: 'x'.repeat(500_000) },
    ];
    for (const body of huge) {
      const { response, milliseconds } = await timedPost(client, '/fixture/unbounded', JSON.stringify(body));
      expect(response.statusCode).toBe(400);
      expect(response.rawPayload.length).toBeLessThan(MAX_REPLY_BYTES);
      expect(milliseconds).toBeLessThan(MAX_CPU_MILLISECONDS);
    }
    expect((await client.post('/fixture/unbounded', { items: [1, 2], open: { a: 1 }, text: 'fine' })).statusCode).toBe(200);
  });

  it.each([
    ['an unknown field', '/api/backtest', (key: string) => ({ ...period, strategy: 'sma_crossover', [key]: 1 })],
    ['a field holding U+0000', '/fixture/unbounded', (key: string) => ({ open: { [key]: 'a\u0000b' } })],
  ])('names %s with a 900 KB name in a few characters: a 400 under 2 KB', async (_name, url, bodyWith) => {
    const key = `k${'x'.repeat(900_000)}`;
    const payload = JSON.stringify(bodyWith(key));
    expect(payload.length).toBeGreaterThan(900_000);
    const response = await new HttpClient(app).post(url, payload);
    expect(response.statusCode).toBe(400);
    expect(response.rawPayload.length).toBeLessThan(2048);
    const { message, details } = response.json();
    expect(message).toContain(`${key.slice(0, 64)}…`);
    expect(details[0].field).toMatch(/^body(\.open)?\.kx{63}…$/);
  });

  it('lists every problem of a small body, at most ten, and says how many there were', async () => {
    const client = new HttpClient(app);
    const small = await client.post('/api/backtest', { symbol: 1, strategy: 2, start_date: 3 });
    expect(small.statusCode).toBe(400);
    const fields = small.json().details.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(['body.symbol', 'body.strategy', 'body.start_date', 'body.initial_capital']));

    const many = await client.post('/fixture/unbounded', { items: Array.from({ length: 40 }, () => 'x') });
    expect(many.statusCode).toBe(400);
    expect(many.json().details).toHaveLength(10);
    expect(many.json().message).toMatch(/40 problems/);
  });
});

describeEachDialect('refused requests count toward the rate limit', (db) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { env: { LEGACY_BACKTEST_RATE_LIMIT: '3' } });
  });

  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['schema violations', '{"symbol": 1}', 400],
    ['malformed JSON', '{"symbol": ', 400],
  ])('%s exhaust the per-client limit of the legacy backtest', async (_name, payload, status) => {
    const client = new HttpClient(app);
    for (let i = 0; i < 3; i += 1) expect((await client.post('/api/compare-strategies', payload)).statusCode).toBe(status);
    const limited = await client.post('/api/compare-strategies', payload);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The same client's well-formed request is refused too: the window is spent.
    const good = await client.post('/api/backtest', { symbol: 'SPY', strategy: 'sma_crossover', start_date: '2020-01-01', end_date: '2020-12-31', initial_capital: 10_000 });
    expect(good.statusCode).toBe(429);
    // Another client is unaffected.
    expect((await new HttpClient(app).post('/api/compare-strategies', payload)).statusCode).toBe(status);
  });

  it('a refused request says what is left of the window', async () => {
    const response = await new HttpClient(app).post('/api/compare-strategies', '{"symbol": 1}');
    expect(response.statusCode).toBe(400);
    expect(response.headers['ratelimit-remaining']).toBe('2');
  });
});
