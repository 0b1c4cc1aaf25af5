import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildJobHandlers } from '../../src/job-runner.js';
import { marketDataProviderFor } from '../../src/market/market-data-provider.js';
import { createMarketData, type MarketData } from '../../src/market/market-data.service.js';
import { enqueueRecurringJob } from '../../src/platform/jobs/recurring.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { OPTION_SETTLEMENT_SCHEDULE } from '../../src/trading/option-settlement.job.js';
import { settleExpiredOptions } from '../../src/trading/option-settlement.service.js';
import { listMyOrders } from '../../src/trading/order-book.service.js';
import { myPortfolio } from '../../src/trading/portfolio.service.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { startFakeYahoo, yahooChart, yahooDay } from '../market/fake-yahoo.js';
import { libraryUser, type LibraryUser } from '../strategies/library-kit.js';
import { auditActions, bar, placeOptionsOrder, seedBars, volatileBars } from './trading-kit.js';

const leg = (symbol: string, side: 'buy' | 'sell', ratio = 1) => ({ symbol, side, ratio });
const quiet = pino({ level: 'silent' });

/** The sessions from 2026-03-10 (a Tuesday) to the expiry, Friday 2026-03-20, the last one closing at `close`. */
function sessionsToExpiry(close: number) {
  const dates = ['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20'];
  return dates.map((date, i) => bar(date, i === dates.length - 1 ? close : close + 1));
}

/** Issue 26 / DESIGN "Options strategies", last point: paper options settle at expiry, by a job. */
describeEachDialect('options settlement at expiry (the job)', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let app: App;
  const settleNow = (marketData: MarketData | null = null) => settleExpiredOptions({ db: db(), dialect: database().dialect, clock, logger: quiet, marketData });

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    for (const symbol of ['SPY', 'IWM']) await seedBars(db(), clock, symbol, volatileBars('2026-03-09', 450));
    await seedBars(db(), clock, 'QQQ', volatileBars('2026-03-09', 400), 'yahoo');
  });
  afterAll(async () => app.close());

  /** A new trader holding what `orders` filled (each 201), on 2026-03-10. */
  async function holding(underlying: string, orders: { legs: ReturnType<typeof leg>[]; qty: number; net_price: number }[]): Promise<LibraryUser> {
    clock.set('2026-03-10T15:00:00.000Z');
    const user = await libraryUser(app, db());
    for (const order of orders) {
      clock.advance(1000);
      const response = await placeOptionsOrder(user.client, { underlying, ...order });
      expect(response.statusCode, response.body).toBe(201);
    }
    return user;
  }

  /** The user's cash, realized P&L and what their contracts cost, in cents, from the tables. */
  async function books(user: LibraryUser) {
    const account = await db().selectFrom('paper_accounts').selectAll().where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    const positions = await db().selectFrom('paper_positions').selectAll().where('user_id', '=', user.userId).execute();
    const cost = Object.fromEntries(positions.map((p) => [p.symbol, Number(p.cost_cents)]));
    return { cash: Number(account.cash_cents), realized: Number(account.realized_pnl_cents), cost };
  }

  // Read through the trade window's services: the clock moves past the sessions' lifetime.
  const tradingDeps = () => ({ db: db(), dialect: database().dialect, clock, config: { flagTradeWindowComplianceEnforcement: false } });
  const portfolio = (user: LibraryUser): Promise<Record<string, any>> => myPortfolio(tradingDeps(), user);
  const ordersOf = async (user: LibraryUser): Promise<Record<string, any>[]> => (await listMyOrders(tradingDeps(), user, {})).orders;

  it('a long call in the money, a put credit spread with one leg in the money, a worthless call and a calendar settle at the expiry close, cash exact to the cent', async () => {
    const CALL_440 = 'SPY260320C00440000';
    const PUT_445 = 'SPY260320P00445000';
    const PUT_435 = 'SPY260320P00435000';
    const CALL_460 = 'SPY260320C00460000';
    const FAR_CALL_440 = 'SPY260417C00440000';
    const longCall = await holding('SPY', [{ legs: [leg(CALL_440, 'buy')], qty: 2, net_price: 100 }]);
    const putSpread = await holding('SPY', [{ legs: [leg(PUT_445, 'sell'), leg(PUT_435, 'buy')], qty: 3, net_price: -0.01 }]);
    const worthless = await holding('SPY', [{ legs: [leg(CALL_460, 'buy')], qty: 5, net_price: 100 }]);
    const calendar = await holding('SPY', [{ legs: [leg(CALL_440, 'buy'), leg(FAR_CALL_440, 'buy')], qty: 1, net_price: 200 }]);
    const before = await Promise.all([longCall, putSpread, worthless, calendar].map(books));
    const calendarPrice = (await portfolio(calendar)).options_structures[0].net_price as number;

    // The expiry day itself: still live, nothing to settle.
    clock.set('2026-03-20T18:00:00.000Z');
    expect(await settleNow()).toEqual({ settled: 0, awaiting: [] });
    expect((await portfolio(longCall)).options_positions).toEqual([expect.objectContaining({ symbol: CALL_440, expiry: '2026-03-20', awaiting_settlement: false })]);

    // The day after, before the expiry's close is stored (and no provider): open, awaiting settlement, not live.
    clock.set('2026-03-21T15:00:00.000Z');
    expect(await settleNow()).toEqual({ settled: 0, awaiting: [{ underlying: 'SPY', expiry: '2026-03-20' }] });
    const waiting = await portfolio(putSpread);
    expect(waiting.options_positions.map((p: { awaiting_settlement: boolean }) => p.awaiting_settlement)).toEqual([true, true]);
    expect(waiting.options_structures).toMatchObject([{ awaiting_settlement: true, qty: 3 }]);
    expect((await portfolio(calendar)).options_structures).toMatchObject([{ awaiting_settlement: true }]);

    // The close of 2026-03-20 arrives (an import): 441.21505.
    await seedBars(db(), clock, 'SPY', sessionsToExpiry(441.21505));
    expect(await settleNow()).toEqual({ settled: 4, awaiting: [] });
    const after = await Promise.all([longCall, putSpread, worthless, calendar].map(books));

    // Long 2 calls at 440: 2 × (441.21505 − 440) × 100 = 243.01 received; realized what it got less what it cost.
    expect(after[0]).toEqual({ cash: before[0]!.cash + 24_301, realized: before[0]!.realized + 24_301 - before[0]!.cost[CALL_440]!, cost: {} });
    // Short 3 puts at 445: 3 × 3.78495 × 100 = 1,135.485, paid 1,135.49 (half away from zero, once); the 435 puts are worthless.
    expect(after[1]).toEqual({
      cash: before[1]!.cash - 113_549,
      realized: before[1]!.realized - 113_549 - before[1]!.cost[PUT_445]! - before[1]!.cost[PUT_435]!,
      cost: {},
    });
    // Out of the money: nothing received, the premium lost.
    expect(after[2]).toEqual({ cash: before[2]!.cash, realized: before[2]!.realized - before[2]!.cost[CALL_460]!, cost: {} });
    // The calendar's near call: 1.21505 × 100 = 121.505 → 121.51; the far call stays at its cost.
    expect(after[3]).toEqual({ cash: before[3]!.cash + 12_151, realized: before[3]!.realized + 12_151 - before[3]!.cost[CALL_440]!, cost: { [FAR_CALL_440]: before[3]!.cost[FAR_CALL_440] } });

    for (const user of [longCall, putSpread, worthless]) {
      const settled = await portfolio(user);
      expect(settled).toMatchObject({ options_positions: [], options_structures: [], reserved_cash: 0 });
      expect(settled.equity).toBe(settled.cash);
    }
    const rest = await portfolio(calendar);
    expect(rest.options_positions).toEqual([expect.objectContaining({ symbol: FAR_CALL_440, awaiting_settlement: false })]);
    expect(rest.options_structures).toMatchObject([{ legs: [{ symbol: FAR_CALL_440, side: 'buy', ratio: 1 }], awaiting_settlement: false }]);
    expect(rest.options_structures[0].net_price).toBeCloseTo(calendarPrice - 1.21505, 8);

    // The history shows the settlement as the newest order, with what it settled at.
    const [settlement] = await ordersOf(putSpread);
    expect(settlement).toMatchObject({
      kind: 'options',
      underlying: 'SPY',
      side: 'buy',
      qty: 3,
      order_type: 'market',
      limit_price: null,
      legs: [leg(PUT_435, 'sell'), leg(PUT_445, 'buy')],
      status: 'filled',
      fill_price: 3.78496667,
      filled_at: '2026-03-21T15:00:00.000Z',
      fill_source: 'expiry_close',
      price_at: '2026-03-20',
      settlement: { expiry: '2026-03-20', underlying_close: 441.21505, close_date: '2026-03-20' },
    });
    expect(await auditActions(db(), settlement!.id)).toEqual(['order.settle']);
    expect((await ordersOf(longCall))[0]).toMatchObject({ side: 'sell', qty: 2, legs: [leg(CALL_440, 'sell')], fill_price: -1.21505 });
    // A trade is not a settlement.
    expect((await ordersOf(longCall))[1]).toMatchObject({ status: 'filled', settlement: null });
  });

  it('the job run twice settles once; two runs at the same moment settle once', async () => {
    const CALL = 'IWM260320C00440000';
    const first = await holding('IWM', [{ legs: [leg(CALL, 'buy')], qty: 1, net_price: 100 }]);
    const second = await holding('IWM', [{ legs: [leg(CALL, 'buy')], qty: 1, net_price: 100 }]);
    const before = await Promise.all([first, second].map(books));
    await seedBars(db(), clock, 'IWM', sessionsToExpiry(450.5));
    clock.set('2026-03-21T15:00:00.000Z');

    // The job as the worker runs it: two workers queue the period's job, one job, run once.
    const { handlers, close } = buildJobHandlers(app.platform);
    try {
      await enqueueRecurringJob(db(), clock, OPTION_SETTLEMENT_SCHEDULE);
      await enqueueRecurringJob(db(), clock, OPTION_SETTLEMENT_SCHEDULE);
      const worker = new JobWorker({ db: db(), dialect: database().dialect, clock, logger: quiet, handlers });
      await worker.runUntilIdle();
      const jobs = await db().selectFrom('jobs').select('state').where('kind', '=', OPTION_SETTLEMENT_SCHEDULE.kind).execute();
      expect(jobs).toEqual([{ state: 'done' }]);
    } finally {
      close();
    }
    // 10.50 × 100 = 1,050.00 each, once.
    expect((await Promise.all([first, second].map(books))).map((b) => b.cash)).toEqual(before.map((b) => b.cash + 105_000));
    expect(await Promise.all([settleNow(), settleNow()])).toEqual([
      { settled: 0, awaiting: [] },
      { settled: 0, awaiting: [] },
    ]);
    expect((await Promise.all([first, second].map(books))).map((b) => b.cash)).toEqual(before.map((b) => b.cash + 105_000));
    for (const user of [first, second]) expect((await ordersOf(user)).filter((order) => order.settlement !== null)).toHaveLength(1);
  });

  it('two instances on one database racing on the same contracts settle each user once', async () => {
    const CALL = 'IWM260417C00440000';
    const users: LibraryUser[] = [];
    for (let i = 0; i < 3; i += 1) users.push(await holding('IWM', [{ legs: [leg(CALL, 'buy')], qty: 1, net_price: 100 }]));
    // (441.25 − 440) × 100 = 125.00 each.
    await seedBars(db(), clock, 'IWM', [bar('2026-04-17', 441.25)]);
    clock.set('2026-04-18T15:00:00.000Z');
    const before = await Promise.all(users.map(books));
    // PostgreSQL: a second pool, as a second instance has. SQLite: one handle (two processes on one file are refused;
    // two handles in one process would block each other's synchronous busy wait).
    const other = database().dialect === 'postgres' ? database().openAnother() : null;
    try {
      const otherDb = other?.db ?? db();
      const runs = await Promise.all([settleNow(), settleExpiredOptions({ db: otherDb, dialect: database().dialect, clock, logger: quiet, marketData: null })]);
      expect(runs[0]!.settled + runs[1]!.settled).toBe(3);
    } finally {
      await other?.close();
    }
    expect((await Promise.all(users.map(books))).map((b) => b.cash)).toEqual(before.map((b) => b.cash + 12_500));
    for (const user of users) expect((await ordersOf(user)).filter((order) => order.settlement !== null)).toHaveLength(1);
  });

  it('an expiry close the store lacks is asked of the provider; while it is down the contracts wait, then settle', async () => {
    const yahoo = await startFakeYahoo();
    try {
      const marketData = createMarketData({
        db: db(),
        clock,
        logger: quiet,
        provider: marketDataProviderFor(testConfig({ MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: yahoo.url }), { clock, logger: quiet }),
      });
      const PUT = 'QQQ260320P00410000';
      const user = await holding('QQQ', [{ legs: [leg(PUT, 'buy')], qty: 1, net_price: 400 }]);
      const before = await books(user);
      clock.set('2026-03-21T15:00:00.000Z');

      yahoo.answer(() => ({ status: 503 }));
      expect(await settleNow(marketData)).toEqual({ settled: 0, awaiting: [{ underlying: 'QQQ', expiry: '2026-03-20' }] });
      expect((await portfolio(user)).options_positions).toEqual([expect.objectContaining({ symbol: PUT, awaiting_settlement: true })]);

      // Yahoo answers again (the provider is asked at most every 15 minutes per symbol).
      clock.advance(15 * 60_000);
      const days = sessionsToExpiry(403.5).map((b) => yahooDay(b.date, b.close));
      yahoo.answer(() => ({ status: 200, body: yahooChart('QQQ', days, '2026-03-21T15:15:00Z') }));
      expect(await settleNow(marketData)).toEqual({ settled: 1, awaiting: [] });
      expect(yahoo.seen.map((request) => request.path)).toEqual(['/v8/finance/chart/QQQ', '/v8/finance/chart/QQQ']);
      // (410 − 403.5) × 100 = 650.00.
      expect((await books(user)).cash).toBe(before.cash + 65_000);
      expect((await portfolio(user)).options_positions).toEqual([]);
    } finally {
      await yahoo.close();
    }
  });
});
