import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { libraryUser, type LibraryUser } from '../strategies/library-kit.js';
import { auditActions, bar, cancelOrder, importBars, ORDERS, placeOptionsOrder, placeOrder, portfolioOf, seedBars, stateOf, volatileBars } from './trading-kit.js';

describeEachDialect('trade window: fills, portfolio, resting limits, cancel', (database, dialect) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let app: App;
  let ann: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    ann = await libraryUser(app, db());
  });
  afterAll(async () => app.close());

  it('starts at 100,000 cash with nothing held', async () => {
    expect(await portfolioOf(ann.client)).toEqual({ cash: 100000, reserved_cash: 0, equity: 100000, positions: [], options_positions: [], options_structures: [], realized_pnl: 0, trade_cooldown_until: null });
  });

  it('market orders fill at the latest stored close; the portfolio by hand', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'AAA', [bar('2026-03-06', 47.25), bar('2026-03-05', 40)]);
    const buy = await placeOrder(user.client, { symbol: 'AAA', side: 'buy', qty: 10 });
    expect(buy.statusCode, buy.body).toBe(201);
    expect(buy.json()).toMatchObject({ kind: 'equity', symbol: 'AAA', underlying: null, side: 'buy', qty: 10, order_type: 'market', status: 'filled', fill_price: 47.25, filled_at: '2026-03-10T15:00:00.000Z', legs: null });
    // No provider: the latest stored close, and the session it closed.
    expect(buy.json()).toMatchObject({ fill_source: 'stored_close', price_at: '2026-03-06' });
    expect(Object.keys(buy.json())).toEqual([
      'id', 'kind', 'symbol', 'underlying', 'side', 'qty', 'order_type', 'limit_price', 'legs', 'status', 'fill_price', 'filled_at',
      'fill_source', 'price_at', 'strategy_id', 'compliance_checked', 'compliance_compliant', 'reject_reason', 'violations', 'client_order_id', 'settlement', 'created_at',
    ]);
    expect(buy.json().settlement).toBeNull();
    expect(await auditActions(db(), buy.json().id)).toEqual(['order.submit', 'order.fill']);
    // 3 more at 47.25 then a new close of 50.10: avg 47.25, 13 shares.
    expect((await placeOrder(user.client, { symbol: 'AAA', side: 'buy', qty: 3 })).statusCode).toBe(201);
    await seedBars(db(), clock, 'AAA', [bar('2026-03-09', 50.1)]);
    // sell 5 at 50.10: proceeds 250.50, cost 236.25, realized 14.25
    expect((await placeOrder(user.client, { symbol: 'AAA', side: 'sell', qty: 5 })).json()).toMatchObject({ status: 'filled', fill_price: 50.1 });
    // cash 100000 − 614.25 + 250.50 = 99636.25; 8 shares cost 378.00, worth 400.80
    expect(await portfolioOf(user.client)).toEqual({
      cash: 99636.25,
      reserved_cash: 0,
      equity: 100037.05,
      positions: [{ symbol: 'AAA', qty: 8, avg_price: 47.25, last_close: 50.1, market_value: 400.8, unrealized_pnl: 22.8 }],
      options_positions: [],
      options_structures: [],
      realized_pnl: 14.25,
      trade_cooldown_until: null,
    });
  });

  it('a limit buy at or above the close fills at the close; below it rests, reserves cash, and fills on a newer imported bar at min(open, limit)', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'BBB', [bar('2026-03-06', 100)]);
    expect((await placeOrder(user.client, { symbol: 'BBB', side: 'buy', qty: 1, order_type: 'limit', limit_price: 100 })).json()).toMatchObject({ status: 'filled', fill_price: 100, limit_price: 100 });
    const resting = await placeOrder(user.client, { symbol: 'BBB', side: 'buy', qty: 10, order_type: 'limit', limit_price: 95.5 });
    expect(resting.statusCode, resting.body).toBe(201);
    expect(resting.json()).toMatchObject({ status: 'accepted', fill_price: null, filled_at: null });
    expect(await portfolioOf(user.client)).toMatchObject({ cash: 99900, reserved_cash: 955, equity: 100000 });

    // A newer bar that does not reach the limit leaves it resting; the next one reaches it (open 96, low 94): fills at 95.50.
    await importBars(db(), dialect, clock, 'BBB', [bar('2026-03-09', 97, { low: 96 })]);
    expect((await user.client.get(`${ORDERS}/${resting.json().id}`)).json().status).toBe('accepted');
    clock.advance(60_000);
    await importBars(db(), dialect, clock, 'BBB', [bar('2026-03-09', 97, { low: 96 }), bar('2026-03-10', 95, { open: 96, low: 94, high: 97 })]);
    const filled = (await user.client.get(`${ORDERS}/${resting.json().id}`)).json();
    expect(filled).toMatchObject({ status: 'filled', fill_price: 95.5, filled_at: '2026-03-10T15:01:00.000Z' });
    expect(await auditActions(db(), filled.id)).toEqual(['order.submit', 'order.fill']);
    expect(await portfolioOf(user.client)).toMatchObject({
      cash: 98945,
      reserved_cash: 0,
      positions: [{ symbol: 'BBB', qty: 11, avg_price: 95.90909091, last_close: 95, market_value: 1045, unrealized_pnl: -10 }],
    });

    // A resting sell holds the shares back and fills on a bar whose high reaches it, at max(open, limit).
    const sell = await placeOrder(user.client, { symbol: 'BBB', side: 'sell', qty: 11, order_type: 'limit', limit_price: 99 });
    expect(sell.json().status).toBe('accepted');
    // Every share is held back by the resting sell.
    expect((await placeOrder(user.client, { symbol: 'BBB', side: 'sell', qty: 1 })).json()).toMatchObject({ error: 'insufficient_position' });
    await importBars(db(), dialect, clock, 'BBB', [bar('2026-03-11', 101, { open: 100, high: 102, low: 99.5 })]);
    expect((await user.client.get(`${ORDERS}/${sell.json().id}`)).json()).toMatchObject({ status: 'filled', fill_price: 100 });
    // proceeds 1100, cost 1055: realized 45
    expect(await portfolioOf(user.client)).toMatchObject({ cash: 100045, reserved_cash: 0, positions: [], realized_pnl: 45, equity: 100045 });
  });

  it('cancels a resting order (reservation freed, audited); 409 once filled or canceled', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'CCC', [bar('2026-03-06', 20)]);
    const resting = (await placeOrder(user.client, { symbol: 'CCC', side: 'buy', qty: 100, order_type: 'limit', limit_price: 10 })).json();
    expect((await portfolioOf(user.client)).reserved_cash).toBe(1000);
    const canceled = await cancelOrder(user.client, resting.id);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ id: resting.id, status: 'canceled' });
    expect((await portfolioOf(user.client)).reserved_cash).toBe(0);
    expect(await auditActions(db(), resting.id)).toEqual(['order.submit', 'order.cancel']);
    expect((await cancelOrder(user.client, resting.id)).json()).toMatchObject({ error: 'order_not_cancelable' });
    const filled = (await placeOrder(user.client, { symbol: 'CCC', side: 'buy', qty: 1 })).json();
    const refused = await cancelOrder(user.client, filled.id);
    expect(refused.statusCode).toBe(409);
    // A canceled order never fills on a later bar.
    await importBars(db(), dialect, clock, 'CCC', [bar('2026-03-09', 9)]);
    expect((await user.client.get(`${ORDERS}/${resting.id}`)).json().status).toBe('canceled');
  });

  it('refuses a buy beyond the cash (reservations counted) and a sell beyond the shares: 422, stored rejected, nothing else changed', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'DDD', [bar('2026-03-06', 1000)]);
    expect((await placeOrder(user.client, { symbol: 'DDD', side: 'buy', qty: 60, order_type: 'limit', limit_price: 900 })).json().status).toBe('accepted');
    const before = await stateOf(db(), user.userId);
    clock.advance(1000);
    const broke = await placeOrder(user.client, { symbol: 'DDD', side: 'buy', qty: 47 });
    expect(broke.statusCode).toBe(422);
    expect(broke.json()).toEqual({ error: 'insufficient_funds', message: 'The order needs $47,000.00; available cash is $46,000.00 ($54,000.00 is held for resting buys). No margin.' });
    clock.advance(1000);
    const short = await placeOrder(user.client, { symbol: 'DDD', side: 'sell', qty: 1 });
    expect(short.statusCode).toBe(422);
    expect(short.json().error).toBe('insufficient_position');
    const after = (await stateOf(db(), user.userId)) as { orders: Record<string, unknown>[] };
    expect({ ...after, orders: after.orders.slice(0, 1) }).toEqual(before);
    expect(after.orders.slice(1).map((o) => [o.status, o.reject_reason])).toEqual([
      ['rejected', 'insufficient_funds'],
      ['rejected', 'insufficient_position'],
    ]);
    const rejected = (await user.client.get(`${ORDERS}/${broke.json().id ?? after.orders[1]!.id}`)).json();
    expect(rejected).toMatchObject({ status: 'rejected', reject_reason: 'insufficient_funds', violations: null });
    expect(await auditActions(db(), rejected.id)).toEqual(['order.submit', 'order.reject']);
    // Exactly the cash is enough.
    expect((await placeOrder(user.client, { symbol: 'DDD', side: 'buy', qty: 46 })).json().status).toBe('filled');
    expect((await portfolioOf(user.client)).cash).toBe(54000);
  });

  it('refuses an order on a symbol without stored bars (422 no_price) and malformed requests (400, nothing stored)', async () => {
    const user = await libraryUser(app, db());
    expect((await placeOrder(user.client, { symbol: 'NOPE', side: 'buy', qty: 1 })).json()).toMatchObject({ error: 'no_price' });
    for (const body of [
      { symbol: 'aaa', side: 'buy', qty: 1 },
      { symbol: 'AAA', side: 'buy', qty: 0 },
      { symbol: 'AAA', side: 'buy', qty: 1.5 },
      { symbol: 'AAA', side: 'hold', qty: 1 },
      { symbol: 'AAA', side: 'buy', qty: 1, order_type: 'limit' },
      { symbol: 'AAA', side: 'buy', qty: 1, limit_price: 3 },
      { symbol: 'AAA', side: 'buy', qty: 1, client_order_id: '' },
      { symbol: 'AAA', side: 'buy', qty: 1, client_order_id: 'x'.repeat(65) },
      { symbol: 'AAA', side: 'buy', qty: 1, extra: true },
    ]) {
      const response = await placeOrder(user.client, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await placeOptionsOrder(user.client, { underlying: 'SPY', legs: [{ symbol: 'QQQ260417P00500000', side: 'buy', ratio: 1 }], qty: 1, net_price: 1 })).statusCode).toBe(400);
    expect((await placeOptionsOrder(user.client, { underlying: 'SPY', legs: [{ symbol: 'SPY', side: 'buy', ratio: 1 }], qty: 1, net_price: 1 })).statusCode).toBe(400);
    expect((await db().selectFrom('orders').select('id').where('user_id', '=', user.userId).execute()).length).toBe(1);
  });

  it('options orders fill at once at the modeled price when their net price (a limit) reaches it; legs by ratio; an expired leg is refused', async () => {
    const user = await libraryUser(app, db());
    // SPY at 472 with a 20-day realized volatility of about 16.2 %: the spread's modeled credit is 6.95 a share.
    await seedBars(db(), clock, 'SPY', volatileBars('2026-03-06', 472));
    const legs = [
      { symbol: 'SPY260417P00500000', side: 'sell', ratio: 1 },
      { symbol: 'SPY260417P00490000', side: 'buy', ratio: 1 },
    ];
    const credit = await placeOptionsOrder(user.client, { underlying: 'SPY', legs, qty: 2, net_price: -1.35 });
    expect(credit.statusCode, credit.body).toBe(201);
    expect(credit.json()).toMatchObject({ kind: 'options', symbol: null, underlying: 'SPY', side: 'sell', qty: 2, order_type: 'limit', limit_price: -1.35, fill_price: -6.95, status: 'filled', legs });
    // A credit of 2 × 6.95 × 100 = 1,390.00, split over the two legs; the spread's width (10 × 100 × 2 = 2,000) is held
    // while it is open, so buying power is 101,390 − 2,000: the maximum loss, 610, is not spendable.
    expect(await portfolioOf(user.client)).toEqual({
      cash: 101390,
      reserved_cash: 2000,
      equity: 100000,
      positions: [],
      options_positions: [
        { symbol: 'SPY260417P00490000', qty: 2, avg_price: -3.475, expiry: '2026-04-17', awaiting_settlement: false },
        { symbol: 'SPY260417P00500000', qty: -2, avg_price: 3.475, expiry: '2026-04-17', awaiting_settlement: false },
      ],
      // The same position as one structure, at the price it was filled at.
      options_structures: [
        {
          id: expect.any(String),
          underlying: 'SPY',
          legs: [
            { symbol: 'SPY260417P00500000', side: 'sell', ratio: 1, right: 'put', strike: 500, expiry: '2026-04-17' },
            { symbol: 'SPY260417P00490000', side: 'buy', ratio: 1, right: 'put', strike: 490, expiry: '2026-04-17' },
          ],
          qty: 2,
          net_price: -6.95,
          opened_at: credit.json().filled_at,
          awaiting_settlement: false,
          max_loss: 610,
          max_gain: 1390,
          breakevens: [493.05],
        },
      ],
      realized_pnl: 0,
      trade_cooldown_until: null,
    });
    // Closing the spread at once: a debit of 0.40 does not reach the modeled ask (refused); up to 9.99 it fills at
    // the ask, 9.52: realized 1,390 − 1,904 = −514, the modeled spread paid twice.
    const close = legs.map((leg) => ({ ...leg, side: leg.side === 'buy' ? 'sell' : 'buy' }));
    expect((await placeOptionsOrder(user.client, { underlying: 'SPY', legs: close, qty: 2, net_price: 0.4 })).json()).toMatchObject({ error: 'limit_not_marketable' });
    expect((await placeOptionsOrder(user.client, { underlying: 'SPY', legs: close, qty: 2, net_price: 9.99 })).json()).toMatchObject({ side: 'buy', status: 'filled', fill_price: 9.52 });
    expect(await portfolioOf(user.client)).toMatchObject({ cash: 99486, reserved_cash: 0, equity: 99486, options_positions: [], options_structures: [], realized_pnl: -514 });

    const expired = await placeOptionsOrder(user.client, { underlying: 'SPY', legs: [{ symbol: 'SPY260306C00500000', side: 'buy', ratio: 1 }], qty: 1, net_price: 1 });
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toMatchObject({ error: 'option_expired' });
    // Two calls at the modeled 3.56 each unit: 1,000 units need $356,000.
    const tooDear = await placeOptionsOrder(user.client, { underlying: 'SPY', legs: [{ symbol: 'SPY260417C00500000', side: 'buy', ratio: 2 }], qty: 1000, net_price: 10 });
    expect(tooDear.json()).toMatchObject({ error: 'insufficient_funds' });
  });

  it('lists orders newest first, paged, with X-Total-Count and a status filter; resets the portfolio keeping the history', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'EEE', [bar('2026-03-06', 10)]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock.advance(1000);
      ids.push((await placeOrder(user.client, { symbol: 'EEE', side: 'buy', qty: 1, ...(i === 4 ? { order_type: 'limit', limit_price: 5 } : {}) })).json().id);
    }
    const page = await user.client.get(`${ORDERS}?limit=2&offset=1`);
    expect(page.headers['x-total-count']).toBe('5');
    expect(page.json().map((o: { id: string }) => o.id)).toEqual([ids[3], ids[2]]);
    const resting = await user.client.get(`${ORDERS}?status=accepted`);
    expect(resting.headers['x-total-count']).toBe('1');
    expect(resting.json().map((o: { id: string }) => o.id)).toEqual([ids[4]]);
    expect((await user.client.get(`${ORDERS}?limit=201`)).statusCode).toBe(400);
    expect((await user.client.get(`${ORDERS}?status=open`)).statusCode).toBe(400);

    const reset = await user.client.post('/api/trade-window/portfolio/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ cash: 100000, reserved_cash: 0, equity: 100000, positions: [], options_positions: [], options_structures: [], realized_pnl: 0, trade_cooldown_until: null });
    expect((await user.client.get(`${ORDERS}/${ids[4]}`)).json().status).toBe('canceled');
    expect((await user.client.get(ORDERS)).headers['x-total-count']).toBe('5');
  });

  it('needs a session and the Origin', async () => {
    const user = await libraryUser(app, db());
    const anonymous = await app.inject({ method: 'GET', url: '/api/trade-window/portfolio' });
    expect(anonymous.statusCode).toBe(401);
    const foreign = await user.client.post(ORDERS, { symbol: 'AAA', side: 'buy', qty: 1 }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toBe('origin_mismatch');
  });

  it('AUTH_V1=off: the routes act for the local operator', async () => {
    const off = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'off' } });
    try {
      await seedBars(db(), clock, 'OPR', [bar('2026-03-06', 5)]);
      const placed = await off.inject({ method: 'POST', url: ORDERS, headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' }, payload: { symbol: 'OPR', side: 'buy', qty: 2 } });
      expect(placed.statusCode, placed.body).toBe(201);
      const portfolio = await off.inject({ method: 'GET', url: '/api/trade-window/portfolio' });
      expect(portfolio.json()).toMatchObject({ cash: 99990 });
    } finally {
      await off.close();
    }
  });
});
