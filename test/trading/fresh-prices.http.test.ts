import pino from 'pino';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildJobHandlers, RECURRING_JOBS } from '../../src/job-runner.js';
import { enqueueRecurringJob } from '../../src/platform/jobs/recurring.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { RESTING_REFRESH_SCHEDULE } from '../../src/trading/resting-refresh.job.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { alpacaMinuteBars, startFakeAlpaca } from '../market/fake-alpaca.js';
import { startFakeYahoo, YAHOO_NOT_FOUND, yahooChart, yahooDay } from '../market/fake-yahoo.js';
import { createStrategy, libraryUser } from '../strategies/library-kit.js';
import { bar, ORDERS, orderRows, placeOrder, portfolioOf, seedBars, stateOf } from './trading-kit.js';

const QUOTE = '/api/trade-window/quote';
const quiet = pino({ level: 'silent' });

/**
 * Issue 26 / DESIGN "Market data", last point: a market order fills at the provider's delayed price (at most 15
 * minutes old) on a symbol the provider filled, else at the latest stored close, and says which; a recurring job
 * refreshes the symbols with resting orders and fills what their new bars reach.
 */
describeEachDialect('paper fills at fresh prices (fake Yahoo and Alpaca)', (database, dialect) => {
  const db = () => database().handle.db;
  // Tuesday 2026-03-10, 11:00 in New York: the market trades.
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let yahooApp: App;
  let alpacaApp: App;
  let yahoo: Awaited<ReturnType<typeof startFakeYahoo>>;
  let alpaca: Awaited<ReturnType<typeof startFakeAlpaca>>;

  beforeAll(async () => {
    yahoo = await startFakeYahoo();
    alpaca = await startFakeAlpaca();
    yahooApp = await buildTestApp(database().handle, { clock, env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: yahoo.url, YAHOO_TIMEOUT_MS: '2000' } });
    alpacaApp = await buildTestApp(database().handle, {
      clock,
      env: { MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'AKTEST', ALPACA_SECRET_KEY: 'shh', ALPACA_DATA_URL: alpaca.url, ALPACA_TIMEOUT_MS: '2000' },
    });
  });
  beforeEach(() => clock.set('2026-03-10T15:00:00.000Z'));
  afterAll(async () => {
    await Promise.all([yahooApp.close(), alpacaApp.close()]);
    await Promise.all([yahoo.close(), alpaca.close()]);
  });

  it('a market order on a Yahoo symbol fills at the delayed price, two minutes old, and says so; the quote route showed it first', async () => {
    const user = await libraryUser(yahooApp, db());
    await seedBars(db(), clock, 'YQA', [bar('2026-03-06', 98), bar('2026-03-09', 100)], 'yahoo');
    yahoo.answer(() => ({ status: 200, body: yahooChart('YQA', [yahooDay('2026-03-09', 100)], '2026-03-10T15:00:00Z', { price: 101.37, at: '2026-03-10T14:58:00Z' }) }));
    const quote = await user.client.get(`${QUOTE}?symbol=YQA`);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toEqual({ symbol: 'YQA', price: 101.37, source: 'delayed_quote', at: '2026-03-10T14:58:00.000Z', provider: 'yahoo', market_closed: false });
    const buy = await placeOrder(user.client, { symbol: 'YQA', side: 'buy', qty: 3 });
    expect(buy.statusCode, buy.body).toBe(201);
    expect(buy.json()).toMatchObject({ status: 'filled', fill_price: 101.37, fill_source: 'delayed_quote', price_at: '2026-03-10T14:58:00.000Z' });
    expect(yahoo.seen.at(-1)).toMatchObject({ path: '/v8/finance/chart/YQA', query: { interval: '1d' } });
    // 3 × 101.37 = 304.11, to the cent.
    expect((await portfolioOf(user.client)).cash).toBe(99695.89);
    expect((await user.client.get(`${ORDERS}/${buy.json().id}`)).json()).toMatchObject({ fill_source: 'delayed_quote', price_at: '2026-03-10T14:58:00.000Z' });
  });

  it('a ticker the store lacks: the quote asks only its price (nothing stored); the order fetches and stores its history first', async () => {
    const user = await libraryUser(yahooApp, db());
    yahoo.answer(() => ({ status: 200, body: yahooChart('NEWQ', [yahooDay('2026-03-06', 30), yahooDay('2026-03-09', 31)], '2026-03-10T15:00:00Z', { price: 31.5, at: '2026-03-10T14:59:00Z' }) }));
    expect((await user.client.get(`${QUOTE}?symbol=NEWQ`)).json()).toMatchObject({ price: 31.5, source: 'delayed_quote' });
    expect(yahoo.seen.at(-1)!.query.period1).toBe(String(Date.parse('2026-03-03T00:00:00Z') / 1000));
    expect(await db().selectFrom('bars').select('date').where('symbol', '=', 'NEWQ').execute()).toEqual([]);
    const buy = await placeOrder(user.client, { symbol: 'NEWQ', side: 'buy', qty: 10 });
    expect(buy.json()).toMatchObject({ status: 'filled', fill_price: 31.5, fill_source: 'delayed_quote' });
    expect((await db().selectFrom('bars').select('date').where('symbol', '=', 'NEWQ').orderBy('date').execute()).map((row) => row.date)).toEqual(['2026-03-06', '2026-03-09']);
    expect((await portfolioOf(user.client)).positions).toEqual([{ symbol: 'NEWQ', qty: 10, avg_price: 31.5, last_close: 31, market_value: 310, unrealized_pnl: -5 }]);
  });

  it('an imported symbol fills at its stored close with the provider on, and the provider is not asked', async () => {
    const user = await libraryUser(yahooApp, db());
    await seedBars(db(), clock, 'IMQ', [bar('2026-03-05', 41), bar('2026-03-06', 42.5)]);
    const asked = yahoo.seen.length;
    expect((await user.client.get(`${QUOTE}?symbol=IMQ`)).json()).toEqual({ symbol: 'IMQ', price: 42.5, source: 'stored_close', at: '2026-03-06', provider: null, market_closed: false });
    const buy = await placeOrder(user.client, { symbol: 'IMQ', side: 'buy', qty: 2 });
    expect(buy.json()).toMatchObject({ status: 'filled', fill_price: 42.5, fill_source: 'stored_close', price_at: '2026-03-06' });
    expect(yahoo.seen.length).toBe(asked);
  });

  it('market closed: a price older than 15 minutes gives way to the stored close, fetched first, and the quote says the market is closed', async () => {
    clock.set('2026-03-10T23:00:00.000Z');
    const user = await libraryUser(yahooApp, db());
    await seedBars(db(), clock, 'YQC', [bar('2026-03-09', 110)], 'yahoo');
    // Yahoo after the close: the latest price is the 16:00 close, two hours old; the chart holds the day's bar.
    yahoo.answer(() => ({ status: 200, body: yahooChart('YQC', [yahooDay('2026-03-10', 120.25)], '2026-03-10T23:00:00Z', { price: 120.25, at: '2026-03-10T21:00:00Z' }) }));
    const quote = (await user.client.get(`${QUOTE}?symbol=YQC`)).json();
    expect(quote).toEqual({ symbol: 'YQC', price: 120.25, source: 'stored_close', at: '2026-03-10', provider: null, market_closed: true });
    const buy = await placeOrder(user.client, { symbol: 'YQC', side: 'buy', qty: 4 });
    expect(buy.json()).toMatchObject({ status: 'filled', fill_price: 120.25, fill_source: 'stored_close', price_at: '2026-03-10' });
  });

  it('a provider that fails refuses the order with its error and stores nothing; a ticker it does not know is no_price, stored rejected', async () => {
    const user = await libraryUser(yahooApp, db());
    await seedBars(db(), clock, 'YQD', [bar('2026-03-09', 50)], 'yahoo');
    const before = await stateOf(db(), user.userId);
    yahoo.answer(() => ({ status: 500, body: {} }));
    const quote = await user.client.get(`${QUOTE}?symbol=YQD`);
    expect(quote.statusCode).toBe(502);
    expect(quote.json()).toMatchObject({ error: 'provider_error' });
    const refused = await placeOrder(user.client, { symbol: 'YQD', side: 'buy', qty: 1 });
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json()).toMatchObject({ error: 'provider_error' });
    yahoo.answer(() => ({ status: 429, body: {} }));
    expect((await placeOrder(user.client, { symbol: 'YQD', side: 'sell', qty: 1, order_type: 'limit', limit_price: 60 })).json()).toMatchObject({ error: 'provider_rate_limited' });
    expect(await stateOf(db(), user.userId)).toEqual(before);

    yahoo.answer(() => ({ status: 404, body: YAHOO_NOT_FOUND }));
    const unknown = await placeOrder(user.client, { symbol: 'NOPEQ', side: 'buy', qty: 1 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: 'no_price', message: expect.stringContaining('does not know it') });
    expect((await orderRows(db(), user.userId)).map((row) => [row.symbol, row.status, row.reject_reason])).toEqual([['NOPEQ', 'rejected', 'no_price']]);
    expect((await user.client.get(`${QUOTE}?symbol=NOPEQ`)).json()).toMatchObject({ error: 'no_price' });
    expect((await user.client.get(`${QUOTE}?symbol=bad!`)).statusCode).toBe(400);
  });

  it('enforcement judges a market order at the delayed price it fills at, not the older stored close', async () => {
    const enforcing = await buildTestApp(database().handle, {
      clock,
      env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: yahoo.url, YAHOO_TIMEOUT_MS: '2000', FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT: '1' },
    });
    try {
      const user = await libraryUser(enforcing, db());
      const capped = await createStrategy(user, { name: 'YQE up to $300', strategy_type: 'equity_long', entry_symbol_allowlist: 'YQE', entry_max_position_size: 300 });
      await seedBars(db(), clock, 'YQE', [bar('2026-03-09', 90)], 'yahoo');
      yahoo.answer(() => ({ status: 200, body: yahooChart('YQE', [yahooDay('2026-03-09', 90)], '2026-03-10T15:00:00Z', { price: 101.37, at: '2026-03-10T14:58:00Z' }) }));
      // 3 × 90 = 270 would pass; 3 × 101.37 = 304.11, what it would cost, does not.
      const refused = await placeOrder(user.client, { symbol: 'YQE', side: 'buy', qty: 3, strategy_id: capped.id });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({ error: 'compliance_violation', violations: [{ rule: 'max_position_size' }] });
      expect((await placeOrder(user.client, { symbol: 'YQE', side: 'buy', qty: 2, strategy_id: capped.id })).json()).toMatchObject({ status: 'filled', fill_price: 101.37 });
    } finally {
      await enforcing.close();
    }
  });

  it('Alpaca: the close of the newest minute bar up to 15 minutes ago, its time capped at that line', async () => {
    const user = await libraryUser(alpacaApp, db());
    await seedBars(db(), clock, 'ALQ', [bar('2026-03-09', 180)], 'alpaca');
    alpaca.answer(() => ({ status: 200, body: alpacaMinuteBars('ALQ', '2026-03-10T14:44:00Z', 187.23) }));
    const buy = await placeOrder(user.client, { symbol: 'ALQ', side: 'buy', qty: 7 });
    expect(buy.json()).toMatchObject({ status: 'filled', fill_price: 187.23, fill_source: 'delayed_quote', price_at: '2026-03-10T14:45:00.000Z' });
    expect(alpaca.seen.at(-1)).toMatchObject({
      path: '/v2/stocks/ALQ/bars',
      query: { timeframe: '1Min', feed: 'sip', sort: 'desc', limit: '1', end: '2026-03-10T14:45:00.000Z' },
    });
    // 7 × 187.23 = 1,310.61.
    expect((await portfolioOf(user.client)).cash).toBe(98689.39);
    // After the close the newest minute bar is hours old: the stored close (the provider has no newer session).
    clock.set('2026-03-10T23:30:00.000Z');
    alpaca.answer((request) =>
      request.query.timeframe === '1Min' ? { status: 200, body: alpacaMinuteBars('ALQ', '2026-03-10T20:59:00Z', 190) } : { status: 200, body: { bars: [], symbol: 'ALQ', next_page_token: null } },
    );
    expect((await placeOrder(user.client, { symbol: 'ALQ', side: 'sell', qty: 7 })).json()).toMatchObject({ fill_price: 180, fill_source: 'stored_close', price_at: '2026-03-09' });
  });

  it('the worker queues the refresh every 15 minutes and handles it', () => {
    expect(RECURRING_JOBS).toContainEqual({ kind: 'trading.resting_refresh', everyMs: 15 * 60_000 });
    const { handlers, close } = buildJobHandlers(yahooApp.platform);
    close();
    for (const job of RECURRING_JOBS) expect(Object.keys(handlers)).toContain(job.kind);
  });

  it('the refresh job fills a resting limit when its new bars reach it, on the injected clock, one job per period, a provider failure not fatal', async () => {
    const user = await libraryUser(yahooApp, db());
    await seedBars(db(), clock, 'YQJ', [bar('2026-03-09', 100)], 'yahoo');
    yahoo.answer(() => ({ status: 200, body: yahooChart('YQJ', [yahooDay('2026-03-09', 100)], '2026-03-10T15:00:00Z', { price: 100.5, at: '2026-03-10T14:59:00Z' }) }));
    const resting = (await placeOrder(user.client, { symbol: 'YQJ', side: 'buy', qty: 5, order_type: 'limit', limit_price: 96 })).json();
    expect(resting).toMatchObject({ status: 'accepted', fill_source: null, price_at: null });
    // Placed against today's delayed price: today's bar (its low may be from before the order) cannot fill it.
    expect((await orderRows(db(), user.userId))[0]!.rests_after).toBe('2026-03-10');

    const { handlers, close } = buildJobHandlers(yahooApp.platform);
    const worker = new JobWorker({ db: db(), dialect, clock, logger: quiet, handlers });
    const runPeriod = async () => {
      await enqueueRecurringJob(db(), clock, RESTING_REFRESH_SCHEDULE);
      await enqueueRecurringJob(db(), clock, RESTING_REFRESH_SCHEDULE);
      await worker.runUntilIdle();
      const jobs = await db().selectFrom('jobs').select('state').where('kind', '=', RESTING_REFRESH_SCHEDULE.kind).execute();
      return jobs.map((job) => job.state);
    };
    try {
      // Wednesday after the close; Yahoo is down: the run ends normally, the order still rests.
      clock.set('2026-03-11T22:00:00.000Z');
      yahoo.answer(() => ({ status: 500, body: {} }));
      expect(await runPeriod()).toEqual(['done']);
      expect((await orderRows(db(), user.userId))[0]!.status).toBe('accepted');
      // 15 minutes later Yahoo answers: 03-10's low (95) would reach 96 but precedes the order; 03-11 opens at 97,
      // its low 96 reaches the limit: filled at min(97, 96) = 96.
      clock.advance(15 * 60_000);
      const seen = yahoo.seen.length;
      yahoo.answer(() => ({ status: 200, body: yahooChart('YQJ', [yahooDay('2026-03-10', 97), yahooDay('2026-03-11', 98)], '2026-03-11T22:15:00Z') }));
      expect(await runPeriod()).toEqual(['done', 'done']);
      expect(yahoo.seen.length).toBe(seen + 1);
    } finally {
      close();
    }
    // (The session has expired by Wednesday evening: read the books from the tables.)
    expect(await orderRows(db(), user.userId)).toMatchObject([{ status: 'filled', fill_price: 96, fill_source: 'resting_bar', price_at: '2026-03-11' }]);
    // 5 × 96 = 480.00 paid.
    const account = await db().selectFrom('paper_accounts').select('cash_cents').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    expect(Number(account.cash_cents)).toBe(9_952_000);
  });
});
