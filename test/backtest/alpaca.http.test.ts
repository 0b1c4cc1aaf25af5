import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { MINUTE } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { alpacaBar, startFakeAlpaca } from '../market/fake-alpaca.js';

/** Trading days of December 2025 (weekdays), closes rising by 1 a day. */
const DECEMBER = Array.from({ length: 31 }, (_, i) => `2025-12-${String(i + 1).padStart(2, '0')}`)
  .filter((date) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))
  .map((date, i) => alpacaBar(date, 100 + i));

describeEachDialect('backtests on Alpaca data fetched on demand', (db) => {
  let app: App;
  let fake: Awaited<ReturnType<typeof startFakeAlpaca>>;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  const backtest = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/backtest',
      payload: { symbol: 'AAPL', strategy: 'buy_and_hold', start_date: '2025-12-01', end_date: '2025-12-31', initial_capital: 10000, ...body },
    });

  beforeAll(async () => {
    fake = await startFakeAlpaca();
    app = await buildTestApp(db().handle, {
      clock,
      env: { MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'AKTEST', ALPACA_SECRET_KEY: 'shh', ALPACA_DATA_URL: fake.url, ALPACA_TIMEOUT_MS: '500' },
    });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.seen.length = 0;
  });

  it('fetches an unknown symbol, pages through, stores it, and serves the next request from the store', async () => {
    fake.answer((_request, index) =>
      index === 0
        ? { status: 200, body: { bars: DECEMBER.slice(0, 10), symbol: 'AAPL', next_page_token: 'next' } }
        : { status: 200, body: { bars: DECEMBER.slice(10), symbol: 'AAPL', next_page_token: null } },
    );
    const response = await backtest({});
    expect(response.statusCode).toBe(200);
    expect(response.json().dates).toEqual(DECEMBER.map((bar) => bar.t.slice(0, 10)));
    expect(fake.seen).toHaveLength(2);
    expect(fake.seen[0]!.query).toMatchObject({ start: '1990-01-01T00:00:00Z', feed: 'sip' });

    // The store now covers the period: no provider call.
    expect((await backtest({ end_date: '2025-12-20' })).statusCode).toBe(200);
    expect(fake.seen).toHaveLength(2);
    expect((await app.inject({ url: '/api/symbols?q=aapl' })).json()).toEqual([
      { symbol: 'AAPL', name: 'AAPL', stored: true, source: 'alpaca', first_date: DECEMBER[0]!.t.slice(0, 10), last_date: DECEMBER.at(-1)!.t.slice(0, 10) },
    ]);
  });

  it('asks for the newest bars at most every 15 minutes on the delayed feed, storing what is new', async () => {
    fake.answer(() => ({ status: 200, body: { bars: [alpacaBar('2026-01-02', 200)], symbol: 'AAPL', next_page_token: null } }));
    // The first fetch (previous test) counts as a check of the newest bars.
    expect((await backtest({ end_date: '2026-01-05' })).json().dates.at(-1)).toBe('2025-12-31');
    expect(fake.seen).toHaveLength(0);
    clock.advance(15 * MINUTE);
    const first = await backtest({ end_date: '2026-01-05' });
    expect(first.json().dates.at(-1)).toBe('2026-01-02');
    expect(fake.seen.map((r) => r.query.start)).toEqual(['2026-01-01T00:00:00Z']);
    expect(fake.seen[0]!.query.end).toBe(new Date(clock.now().getTime() - 15 * MINUTE).toISOString());
    expect((await backtest({ end_date: '2026-01-05' })).statusCode).toBe(200);
    expect(fake.seen).toHaveLength(1);
    clock.advance(15 * MINUTE);
    await backtest({ end_date: '2026-01-05' });
    expect(fake.seen).toHaveLength(2);
  });

  it('answers from stored bars when the provider fails on a delayed refresh', async () => {
    clock.advance(15 * MINUTE);
    fake.answer(() => ({ status: 500 }));
    const response = await backtest({ end_date: '2026-01-05' });
    expect(response.statusCode).toBe(200);
    expect(fake.seen).toHaveLength(1);
  });

  it('turns the provider refusing real-time data into 403 feed_not_entitled', async () => {
    fake.answer(() => ({ status: 403, body: { message: 'subscription does not permit querying recent SIP data' } }));
    const response = await backtest({ data_feed: 'sip', end_date: '2026-01-05' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'feed_not_entitled', message: expect.stringContaining('sip') });
  });

  it('offers the real-time feed too when market-data keys are configured', async () => {
    const feeds = (await app.inject({ url: '/api/data-feeds' })).json();
    expect(feeds.map((feed: { id: string }) => feed.id)).toEqual(['delayed_sip', 'sip']);
    expect(fake.seen).toHaveLength(0);
  });

  it('says 404 unknown_symbol when the provider has no bars for it either', async () => {
    fake.answer(() => ({ status: 200, body: { bars: [], symbol: 'ZZZZ', next_page_token: null } }));
    const response = await backtest({ symbol: 'ZZZZ' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'unknown_symbol', message: expect.stringContaining('ZZZZ') });
  });

  it.each([
    [{ status: 401, body: { message: 'unauthorized' } }, 502, 'provider_auth_failed'],
    [{ status: 429, headers: { 'retry-after': '0' }, body: {} }, 503, 'provider_rate_limited'],
    [{ status: 200, raw: 'not json' }, 502, 'provider_bad_response'],
    ['hang' as const, 504, 'provider_timeout'],
  ])('maps a provider answer %j on a new symbol to %i %s', async (answer, status, error) => {
    fake.answer(() => answer);
    const response = await backtest({ symbol: 'NEWCO' });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error, message: expect.any(String) });
  });

  it('fetches a benchmark it has not stored through the provider, as the backtested symbol; 404 naming the benchmark when the provider has none', async () => {
    const msft = DECEMBER.map((bar) => ({ ...bar, c: bar.c * 2 }));
    fake.answer((request) => {
      if (request.path.includes('/MSFT/')) return { status: 200, body: { bars: msft, symbol: 'MSFT', next_page_token: null } };
      return { status: 200, body: { bars: [], symbol: request.path.includes('/ZZZB/') ? 'ZZZB' : 'AAPL', next_page_token: null } };
    });
    const response = await backtest({ benchmark: 'MSFT' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(fake.seen.some((request) => request.path.includes('/MSFT/'))).toBe(true);
    // 10,000 × close / the first close, on AAPL's dates (the same trading days).
    expect(body.benchmark).toMatchObject({ symbol: 'MSFT', equity_curve: msft.map((bar) => Math.round((10000 * bar.c * 100) / msft[0]!.c) / 100) });
    const unknown = await backtest({ benchmark: 'ZZZB' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'unknown_symbol', details: [{ field: 'body.benchmark' }] });
  });
});
