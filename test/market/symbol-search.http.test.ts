import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { FAILED_OFFERS_TTL_MS, OFFERS_TTL_MS } from '../../src/market/provider-offers.js';
import { SECOND } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { startFakeAlpaca } from './fake-alpaca.js';
import { startFakeYahoo, YAHOO_SEARCH_PATH, yahooDay, yahooKnowing, yahooSearch, type YahooSearchHit } from './fake-yahoo.js';

const SPX_ENTRY = { symbol: 'SPX', name: 'S&P 500 Index', stored: true, source: 'demo', first_date: '2000-01-03', last_date: '2020-04-17' };
const LISTED: YahooSearchHit[] = [
  { symbol: 'AAPL', name: 'Apple Inc.' },
  { symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', quoteType: 'ETF' },
  // Yahoo's own SPX (an index it also calls ^SPX): stored here from the demo, so listed once, as stored.
  { symbol: 'SPX', name: 'S&P 500 INDEX', quoteType: 'INDEX' },
  { symbol: 'SPXL', name: 'Direxion Daily S&P 500 Bull 3X Shares', quoteType: 'ETF' },
  // Not offered: what a backtest cannot use (an option, a currency pair, a ticker our rule refuses).
  { symbol: 'SPY261218C00450000', name: 'SPY Dec 2026 450 call', quoteType: 'OPTION' },
  { symbol: 'SPXEUR=X', name: 'SP 500 in euros', quoteType: 'CURRENCY' },
  { symbol: 'spx.lower', name: 'SP lower case' },
];
const DECEMBER = ['2025-12-29', '2025-12-30', '2025-12-31'].map((date, i) => yahooDay(date, 100 + i));

describeEachDialect('GET /api/symbols with a market-data provider', (database) => {
  let app: App;
  let fake: Awaited<ReturnType<typeof startFakeYahoo>>;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  const searchCalls = () => fake.seen.filter((request) => request.path === YAHOO_SEARCH_PATH);
  const symbols = (query: string, on: App = app) => on.inject({ url: `/api/symbols${query}` });

  beforeAll(async () => {
    fake = await startFakeYahoo();
    app = await buildTestApp(database().handle, { clock, env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url, YAHOO_TIMEOUT_MS: '300' } });
    await loadDemoDataIfEmpty(database().handle.db, clock, app.log);
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.seen.length = 0;
    fake.answer(yahooKnowing({ AAPL: DECEMBER }, LISTED, clock.now().toISOString()));
    // Each test its own cache: a query asked in an earlier test is not reused.
    clock.advance(OFFERS_TTL_MS);
  });

  it('offers tickers Yahoo knows and the store lacks, marked not stored, after the stored matches with their range and source', async () => {
    const response = await symbols('?q=sp');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      SPX_ENTRY,
      { symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', stored: false, source: 'yahoo' },
      { symbol: 'SPXL', name: 'Direxion Daily S&P 500 Bull 3X Shares', stored: false, source: 'yahoo' },
    ]);
    expect(response.headers).toMatchObject({ 'x-total-count': '3', 'x-market-data-provider': 'yahoo', 'x-provider-search': 'offered' });
    expect(searchCalls().map((request) => request.query.q)).toEqual(['sp']);
  });

  it('pages stored matches and offers as one list, X-Total-Count counting both', async () => {
    const first = await symbols('?q=sp&limit=2');
    expect(first.json().map((entry: { symbol: string }) => entry.symbol)).toEqual(['SPX', 'SPY']);
    expect(first.headers['x-total-count']).toBe('3');
    const second = await symbols('?q=sp&limit=2&offset=2');
    expect(second.json().map((entry: { symbol: string }) => entry.symbol)).toEqual(['SPXL']);
    expect((await symbols('?q=sp&offset=3')).json()).toEqual([]);
    expect(searchCalls()).toHaveLength(1);
  });

  it('lists a stored ticker Yahoo finds by a name the store lacks as stored, once fetched: AAPL is "Apple Inc." at Yahoo, "AAPL" here', async () => {
    expect((await symbols('?q=apple')).json()).toEqual([{ symbol: 'AAPL', name: 'Apple Inc.', stored: false, source: 'yahoo' }]);
    const backtest = await app.inject({
      method: 'POST',
      url: '/api/backtest',
      payload: { symbol: 'AAPL', strategy: 'buy_and_hold', start_date: '2025-12-01', end_date: '2025-12-31', initial_capital: 10000 },
    });
    expect(backtest.statusCode).toBe(200);
    clock.advance(OFFERS_TTL_MS);
    expect((await symbols('?q=apple')).json()).toEqual([{ symbol: 'AAPL', name: 'AAPL', stored: true, source: 'yahoo', first_date: '2025-12-29', last_date: '2025-12-31' }]);
    // By its ticker it is a stored match, listed once.
    expect((await symbols('?q=aapl')).json()).toEqual([{ symbol: 'AAPL', name: 'AAPL', stored: true, source: 'yahoo', first_date: '2025-12-29', last_date: '2025-12-31' }]);
  });

  it('asks Yahoo nothing for an empty or one-character query', async () => {
    for (const query of ['', '?q=', '?q=s', '?q=%20s%20', '?limit=5']) {
      const response = await symbols(query);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-provider-search']).toBe('not_asked');
    }
    expect((await symbols('?q=s')).json()).toEqual([SPX_ENTRY]);
    expect(fake.seen).toHaveLength(0);
  });

  it('asks Yahoo once per query (any case) for 5 minutes, and concurrent requests share one call', async () => {
    await Promise.all(['?q=sp', '?q=SP', '?q=Sp', '?q=%20sp'].map((query) => symbols(query)));
    expect(searchCalls()).toHaveLength(1);
    clock.advance(OFFERS_TTL_MS - SECOND);
    expect((await symbols('?q=sp')).json()).toHaveLength(3);
    expect(searchCalls()).toHaveLength(1);
    clock.advance(SECOND);
    expect((await symbols('?q=sp')).json()).toHaveLength(3);
    expect(searchCalls()).toHaveLength(2);
    // Another query is another call.
    await symbols('?q=spx');
    expect(searchCalls()).toHaveLength(3);
  });

  it.each([
    ['an error status', { status: 500, raw: 'oops' }],
    ['a rate limit', { status: 429, raw: 'Too Many Requests' }],
    ['a body not in the search shape', { status: 200, body: { quotes: 'no' } }],
    ['no answer within the timeout', 'hang' as const],
  ])('still answers with the stored matches when Yahoo gives %s, saying the provider part is unavailable', async (_what, answer) => {
    fake.answer(() => answer);
    const response = await symbols('?q=sp');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([SPX_ENTRY]);
    expect(response.headers).toMatchObject({ 'x-total-count': '1', 'x-provider-search': 'unavailable' });
  });

  it('does not ask a failing Yahoo again for the same query for 30 seconds', async () => {
    fake.answer(() => ({ status: 503, raw: 'down' }));
    await symbols('?q=sp');
    clock.advance(FAILED_OFFERS_TTL_MS - SECOND);
    expect((await symbols('?q=sp')).headers['x-provider-search']).toBe('unavailable');
    expect(searchCalls()).toHaveLength(1);
    fake.answer(yahooKnowing({}, LISTED));
    clock.advance(SECOND);
    const recovered = await symbols('?q=sp');
    expect(recovered.headers['x-provider-search']).toBe('offered');
    expect(recovered.json()).toHaveLength(3);
    expect(searchCalls()).toHaveLength(2);
  });

  it('still answers when Yahoo cannot be reached at all', async () => {
    const unreachable = await buildTestApp(database().handle, { clock, env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: 'http://127.0.0.1:9', YAHOO_TIMEOUT_MS: '300' } });
    try {
      const response = await symbols('?q=sp', unreachable);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([SPX_ENTRY]);
      expect(response.headers['x-provider-search']).toBe('unavailable');
    } finally {
      await unreachable.close();
    }
  });

  it('sends Yahoo the query trimmed and in lower case (one cache entry for any case), asking for 10 quotes and no news', async () => {
    fake.answer(() => ({ status: 200, body: yahooSearch([]) }));
    await symbols('?q=Berkshire%20H');
    expect(searchCalls()[0]!.query).toMatchObject({ q: 'berkshire h', quotesCount: '10', newsCount: '0' });
  });

  it('makes no call with MARKET_DATA_PROVIDER=none (the tests’ default): stored symbols only', async () => {
    const offline = await buildTestApp(database().handle, { clock, env: { YAHOO_BASE_URL: fake.url } });
    try {
      const response = await symbols('?q=sp', offline);
      expect(response.json()).toEqual([SPX_ENTRY]);
      expect(response.headers).toMatchObject({ 'x-total-count': '1', 'x-market-data-provider': 'none', 'x-provider-search': 'not_asked' });
      expect(fake.seen).toHaveLength(0);
    } finally {
      await offline.close();
    }
  });

  it('makes no call with Alpaca, whose market-data API has no search: stored symbols only', async () => {
    const alpacaFake = await startFakeAlpaca();
    const alpaca = await buildTestApp(database().handle, {
      clock,
      env: { MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'AKTEST', ALPACA_SECRET_KEY: 'shh', ALPACA_DATA_URL: alpacaFake.url, YAHOO_BASE_URL: fake.url },
    });
    try {
      const response = await symbols('?q=sp', alpaca);
      expect(response.json()).toEqual([SPX_ENTRY]);
      expect(response.headers).toMatchObject({ 'x-market-data-provider': 'alpaca', 'x-provider-search': 'not_asked' });
      expect(alpacaFake.seen).toHaveLength(0);
      expect(fake.seen).toHaveLength(0);
    } finally {
      await alpaca.close();
      await alpacaFake.close();
    }
  });

  it('offers only the delayed feed with Yahoo, which serves no real-time data', async () => {
    expect((await app.inject({ url: '/api/data-feeds' })).json().map((feed: { id: string }) => feed.id)).toEqual(['delayed_sip']);
  });
});
