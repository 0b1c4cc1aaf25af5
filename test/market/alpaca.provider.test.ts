import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchAlpacaDailyBars, fetchAlpacaLatestPrice, type AlpacaDeps } from '../../src/market/alpaca.provider.js';
import { ManualClock } from '../helpers/clock.js';
import { alpacaBar, alpacaMinuteBars, startFakeAlpaca } from './fake-alpaca.js';

describe('Alpaca Market Data v2 adapter (against a local server)', () => {
  let fake: Awaited<ReturnType<typeof startFakeAlpaca>>;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  let slept: number[];
  let deps: AlpacaDeps;

  beforeAll(async () => {
    fake = await startFakeAlpaca();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.seen.length = 0;
    slept = [];
    deps = {
      config: { keyId: 'AKTEST', secretKey: 'shh', dataUrl: fake.url, timeoutMs: 300 },
      clock,
      sleep: async (ms) => void slept.push(ms),
    };
  });

  it('asks for adjusted daily sip bars with our keys and follows next_page_token to the last page', async () => {
    const pages = [
      { bars: [alpacaBar('2025-12-29', 10), alpacaBar('2025-12-30', 11)], symbol: 'AAPL', next_page_token: 'p2' },
      { bars: [alpacaBar('2025-12-31', 12)], symbol: 'AAPL', next_page_token: 'p3' },
      { bars: [alpacaBar('2026-01-02', 13)], symbol: 'AAPL', next_page_token: null },
    ];
    fake.answer((_request, index) => ({ status: 200, body: pages[index] }));
    const bars = await fetchAlpacaDailyBars(deps, 'AAPL', '2025-12-01', '2025-12-31', 'delayed_sip');
    expect(bars.map((b) => b.date)).toEqual(['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-02']);
    expect(bars[0]).toEqual({ date: '2025-12-29', open: 9, high: 11, low: 8, close: 10, volume: 1_000_000 });
    expect(fake.seen.map((r) => r.query.page_token)).toEqual([undefined, 'p2', 'p3']);
    const first = fake.seen[0]!;
    expect(first.path).toBe('/v2/stocks/AAPL/bars');
    expect(first.query).toEqual({
      timeframe: '1Day',
      adjustment: 'all',
      start: '2025-12-01T00:00:00Z',
      end: '2025-12-31T23:59:59.000Z',
      feed: 'sip',
      limit: '10000',
    });
    expect(first.headers['apca-api-key-id']).toBe('AKTEST');
    expect(first.headers['apca-api-secret-key']).toBe('shh');
  });

  it('ends delayed_sip 15 minutes before now, and sip at now', async () => {
    fake.answer(() => ({ status: 200, body: { bars: [], symbol: 'AAPL', next_page_token: null } }));
    await fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip');
    await fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'sip');
    expect(fake.seen.map((r) => r.query.end)).toEqual(['2026-01-05T14:45:00.000Z', '2026-01-05T15:00:00.000Z']);
    expect(fake.seen.map((r) => r.query.feed)).toEqual(['sip', 'sip']);
  });

  it('does not ask for a period that ends before it starts once the delay is applied', async () => {
    fake.answer(() => ({ status: 500 }));
    expect(await fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-06', '2026-01-06', 'delayed_sip')).toEqual([]);
    expect(fake.seen).toHaveLength(0);
  });

  it('takes null bars as none', async () => {
    fake.answer(() => ({ status: 200, body: { bars: null, symbol: 'ZZZZ', next_page_token: null } }));
    expect(await fetchAlpacaDailyBars(deps, 'ZZZZ', '2026-01-01', '2026-01-05', 'delayed_sip')).toEqual([]);
  });

  it('turns a 403 on sip into our 403 feed_not_entitled, and on delayed data into a 502', async () => {
    fake.answer(() => ({ status: 403, body: { message: 'subscription does not permit querying recent SIP data' } }));
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'sip')).rejects.toMatchObject({ status: 403, code: 'feed_not_entitled' });
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 502, code: 'provider_forbidden' });
  });

  it('turns a 401 (bad keys) into a 502 provider_auth_failed', async () => {
    fake.answer(() => ({ status: 401, body: { message: 'unauthorized' } }));
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 502, code: 'provider_auth_failed' });
  });

  it('waits out a 429 for as long as Retry-After says, then carries on', async () => {
    fake.answer((_request, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '3' }, body: { message: 'too many requests' } }
        : { status: 200, body: { bars: [alpacaBar('2026-01-02', 5)], symbol: 'AAPL', next_page_token: null } },
    );
    expect(await fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).toHaveLength(1);
    expect(slept).toEqual([3000]);
    expect(fake.seen).toHaveLength(2);
  });

  it('gives up after 3 retries with 503 provider_rate_limited (backing off when Retry-After is missing)', async () => {
    fake.answer(() => ({ status: 429, body: { message: 'too many requests' } }));
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 503, code: 'provider_rate_limited' });
    expect(fake.seen).toHaveLength(4);
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  it.each([
    ['a body that is not JSON', { status: 200, raw: '<html>oops' }],
    ['bars that are not an array', { status: 200, body: { bars: 'none', next_page_token: null } }],
    ['a bar without a price', { status: 200, body: { bars: [{ t: '2026-01-02T05:00:00Z', o: 1, h: 1, l: 1, v: 1 }], next_page_token: null } }],
    ['a bar with a text price', { status: 200, body: { bars: [{ ...alpacaBar('2026-01-02', 5), c: '5' }], next_page_token: null } }],
    ['a bar without a timestamp', { status: 200, body: { bars: [{ ...alpacaBar('2026-01-02', 5), t: 17 }], next_page_token: null } }],
    ['a page token that is not a string', { status: 200, body: { bars: [], next_page_token: 7 } }],
  ])('answers 502 provider_bad_response to %s', async (_case, answer) => {
    fake.answer(() => answer);
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 502, code: 'provider_bad_response' });
  });

  it('answers 502 provider_error to a server error', async () => {
    fake.answer(() => ({ status: 500, body: { message: 'internal' } }));
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 502, code: 'provider_error' });
  });

  it('answers 504 provider_timeout when the provider does not answer in time', async () => {
    fake.answer(() => 'hang');
    const started = Date.now();
    await expect(fetchAlpacaDailyBars(deps, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 504, code: 'provider_timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('answers 502 provider_unreachable when nothing listens (DESIGN)', async () => {
    const gone = { ...deps, config: { ...deps.config, dataUrl: 'http://127.0.0.1:1' } };
    await expect(fetchAlpacaDailyBars(gone, 'AAPL', '2026-01-01', '2026-01-05', 'delayed_sip')).rejects.toMatchObject({ status: 502, code: 'provider_unreachable' });
  });

  it('latest price: the newest minute bar up to 15 minutes ago, its time the end of that minute capped at the line; none is unknown_symbol', async () => {
    fake.answer(() => ({ status: 200, body: alpacaMinuteBars('AAPL', '2026-01-05T14:40:00Z', 243.5) }));
    expect(await fetchAlpacaLatestPrice(deps, 'AAPL')).toEqual({ price: 243.5, at: '2026-01-05T14:41:00.000Z' });
    expect(fake.seen[0]).toMatchObject({
      path: '/v2/stocks/AAPL/bars',
      query: { timeframe: '1Min', feed: 'sip', sort: 'desc', limit: '1', start: '2025-12-29T14:45:00.000Z', end: '2026-01-05T14:45:00.000Z' },
      headers: { 'apca-api-key-id': 'AKTEST' },
    });
    fake.answer(() => ({ status: 200, body: alpacaMinuteBars('AAPL', '2026-01-05T14:44:40Z', 243.6) }));
    expect((await fetchAlpacaLatestPrice(deps, 'AAPL')).at).toBe('2026-01-05T14:45:00.000Z');
    fake.answer(() => ({ status: 200, body: alpacaMinuteBars('ZZZZ', null) }));
    await expect(fetchAlpacaLatestPrice(deps, 'ZZZZ')).rejects.toMatchObject({ status: 404, code: 'unknown_symbol' });
    fake.answer(() => ({ status: 200, body: { bars: [{ t: 'soon', c: 1 }], symbol: 'AAPL', next_page_token: null } }));
    await expect(fetchAlpacaLatestPrice(deps, 'AAPL')).rejects.toMatchObject({ status: 502, code: 'provider_bad_response' });
    fake.answer(() => ({ status: 403 }));
    await expect(fetchAlpacaLatestPrice(deps, 'AAPL')).rejects.toMatchObject({ status: 502, code: 'provider_forbidden' });
  });
});
