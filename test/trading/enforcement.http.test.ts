import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { LIFETIMES } from '../../src/auth/lifetimes.js';
import { setTradeCooldown } from '../../src/auth/users.repo.js';
import { isoAfter } from '../../src/platform/clock.js';
import { signIn } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';
import { signedInAccount } from '../helpers/accounts.js';
import { createStrategy, libraryUser, type LibraryUser } from '../strategies/library-kit.js';
import { cancelOrder, ORDERS, orderRows, placeOptionsOrder, placeOrder, seedBars, stateOf, volatileBars } from './trading-kit.js';

const SPREAD_LEGS = [
  { symbol: 'SPY260417P00500000', side: 'sell', ratio: 1 },
  { symbol: 'SPY260417P00490000', side: 'buy', ratio: 1 },
];

describeEachDialect('trade window: enforcement, refusal order, cooldown, idempotency, ownership', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  /** Enforcement off (the default) and on: two servers on one database, as the browser test runs them. */
  let off: App;
  let on: App;

  beforeAll(async () => {
    off = await buildTestApp(database().handle, { clock });
    on = await buildTestApp(database().handle, { clock, env: { FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT: '1' } });
    await seedBars(db(), clock, 'SPY', volatileBars('2026-03-06', 472));
  });
  afterAll(async () => {
    await off.close();
    await on.close();
  });

  /** A user with an equity strategy (SPY, sell only) and a put credit spread strategy (sell, credit ≥ 1). */
  async function trader(): Promise<LibraryUser & { equity: number; spread: number; onClient: HttpClient }> {
    const user = await libraryUser(off, db());
    const equity = await createStrategy(user, { name: 'SPY sells', strategy_type: 'equity_long', entry_symbol_allowlist: 'SPY', entry_allowed_sides: 'sell', entry_max_position_size: 50000 });
    const spread = await createStrategy(user, { name: 'Put credit spreads', strategy_type: 'vertical_spread', entry_symbol_allowlist: 'SPY', entry_allowed_sides: 'sell', credit_min_amount: 1, exit_max_dte: 60, options_spec: { structure: 'put_credit', short_otm_pct: 0.05, width: 5, dte: 45 } });
    return { ...user, equity: equity.id, spread: spread.id, onClient: user.client.on(on) };
  }

  it('enforcement on/off × with/without strategy_id × both routes', async () => {
    const user = await trader();
    const flags = { compliance_checked: true, compliance_compliant: true };
    // An equity buy breaks "sell only"; an options debit (the put spread bought) breaks "sell only" and the minimum credit.
    const equityBody = (extra: object) => ({ symbol: 'SPY', side: 'buy', qty: 1, ...flags, ...extra });
    const debitSpread = SPREAD_LEGS.map((leg) => ({ ...leg, side: leg.side === 'sell' ? 'buy' : 'sell' }));
    const optionsBody = (extra: object) => ({ underlying: 'SPY', legs: debitSpread, qty: 1, net_price: 9.99, ...flags, ...extra });

    const cases = [
      { route: 'orders', enforce: false, strategy: true, status: 201, stored: [true, true] },
      { route: 'orders', enforce: false, strategy: false, status: 201, stored: [true, true] },
      { route: 'orders', enforce: true, strategy: true, status: 422, stored: [true, false] },
      { route: 'orders', enforce: true, strategy: false, status: 201, stored: [null, null] },
      { route: 'options-orders', enforce: false, strategy: true, status: 201, stored: [true, true] },
      { route: 'options-orders', enforce: false, strategy: false, status: 201, stored: [true, true] },
      { route: 'options-orders', enforce: true, strategy: true, status: 422, stored: [true, false] },
      { route: 'options-orders', enforce: true, strategy: false, status: 201, stored: [null, null] },
    ] as const;
    for (const c of cases) {
      const client = c.enforce ? user.onClient : user.client;
      const strategy = c.strategy ? { strategy_id: c.route === 'orders' ? user.equity : user.spread } : {};
      const response = c.route === 'orders' ? await placeOrder(client, equityBody(strategy)) : await placeOptionsOrder(client, optionsBody(strategy));
      expect(response.statusCode, `${JSON.stringify(c)} ${response.body}`).toBe(c.status);
      const row = (await orderRows(db(), user.userId)).at(-1)!;
      expect([row.compliance_checked, row.compliance_compliant], JSON.stringify(c)).toEqual(c.stored);
      if (c.status === 422) {
        expect(row.status).toBe('rejected');
        const body = response.json();
        expect(Object.keys(body)).toEqual(['error', 'message', 'violations']);
        expect(body.error).toBe('compliance_violation');
        expect(body.violations.map((v: { rule: string }) => v.rule)).toEqual(c.route === 'orders' ? ['side_allowed'] : ['side_allowed', 'min_credit']);
        expect(JSON.parse(row.violations!)).toEqual(body.violations);
      }
      clock.advance(1000);
    }
    // A compliant order with enforcement on: the server's verdict stored, the client's booleans ignored.
    const compliant = await placeOptionsOrder(user.onClient, { underlying: 'SPY', legs: SPREAD_LEGS, qty: 1, net_price: -1.2, strategy_id: user.spread, compliance_compliant: false });
    expect(compliant.statusCode, compliant.body).toBe(201);
    expect(compliant.json()).toMatchObject({ status: 'filled', compliance_checked: true, compliance_compliant: true, strategy_id: user.spread });
  });

  it('the rules judge an order by the price it fills at: a marketable limit by the close, a resting limit by its limit', async () => {
    const user = await trader();
    const capped = await createStrategy(user, { name: 'SPY up to $1,000', strategy_type: 'equity_long', entry_symbol_allowlist: 'SPY', entry_max_position_size: 1000 });
    expect((await placeOrder(user.client, { symbol: 'SPY', side: 'buy', qty: 5 })).statusCode).toBe(201);
    const limit = (side: string, qty: number, limitPrice: number) => ({ symbol: 'SPY', side, qty, order_type: 'limit', limit_price: limitPrice, strategy_id: capped.id });

    // A sell limited at 0.01 fills at once at the close (472): 5 × 472 = $2,360, not 5 × 0.01.
    const cheapSell = await placeOrder(user.onClient, limit('sell', 5, 0.01));
    expect(cheapSell.statusCode, cheapSell.body).toBe(422);
    expect(cheapSell.json().violations).toEqual([{ rule: 'max_position_size', message: expect.stringContaining('$2,360.00 (5 × $472.00)') }]);
    // A buy limited far above the close fills at the close: 2 × 472 = $944, within the $1,000.
    const dearBuy = await placeOrder(user.onClient, limit('buy', 2, 10000));
    expect(dearBuy.statusCode, dearBuy.body).toBe(201);
    expect(dearBuy.json()).toMatchObject({ status: 'filled', fill_price: 472, compliance_compliant: true });
    // A resting limit is judged by its limit: a sell at 480 rests (2 × 480 = $960), one of 3 at 480 is $1,440.
    expect((await placeOrder(user.onClient, limit('sell', 2, 480))).json()).toMatchObject({ status: 'accepted', compliance_compliant: true });
    const restingTooBig = await placeOrder(user.onClient, limit('sell', 3, 480));
    expect(restingTooBig.json().violations).toEqual([{ rule: 'max_position_size', message: expect.stringContaining('$1,440.00 (3 × $480.00)') }]);
    // The compliance check answers what enforcement would.
    const check = await user.client.post('/api/trading/compliance-check', { strategy_id: capped.id, symbol: 'SPY', qty: 5, side: 'sell', order_type: 'limit', price: 0.01 });
    expect(check.json()).toMatchObject({ compliant: false, violations: [{ rule: 'max_position_size' }] });
  });

  it('refuses in DESIGN’s order: validation, cooldown, compliance, funds, each leaving all but the stored rejected order unchanged', async () => {
    const user = await trader();
    // The account opens on first use; open it now so that the snapshots below compare it.
    expect((await user.client.post('/api/trade-window/portfolio/reset')).statusCode).toBe(200);
    const until = isoAfter(clock, LIFETIMES.tradeCooldown);
    await setTradeCooldown(db(), user.userId, until);
    // Wrong everywhere: malformed (qty 0), in cooldown, breaks the rules (a buy), beyond the cash.
    const body = { symbol: 'SPY', side: 'buy', qty: 0, strategy_id: user.equity };
    let before = await stateOf(db(), user.userId);
    expect((await placeOrder(user.onClient, body)).statusCode).toBe(400);
    const cooling = await placeOrder(user.onClient, { ...body, qty: 1000 });
    expect(cooling.statusCode).toBe(403);
    expect(cooling.json()).toMatchObject({ error: 'trade_cooldown', until });
    const afterCooldown = (await stateOf(db(), user.userId)) as { orders: unknown[] };
    expect({ ...afterCooldown, orders: [] }).toEqual({ ...(before as object), orders: [] });
    expect(afterCooldown.orders).toHaveLength(1);

    await setTradeCooldown(db(), user.userId, clock.now().toISOString());
    clock.advance(1000);
    before = await stateOf(db(), user.userId);
    const violating = await placeOrder(user.onClient, { ...body, qty: 1000 });
    expect(violating.statusCode).toBe(422);
    expect(violating.json().error).toBe('compliance_violation');
    expect(violating.json().violations.map((v: { rule: string }) => v.rule)).toEqual(['side_allowed', 'max_position_size']);
    const afterViolation = (await stateOf(db(), user.userId)) as { orders: unknown[] };
    expect({ ...afterViolation, orders: [] }).toEqual({ ...(before as object), orders: [] });
    expect(afterViolation.orders).toHaveLength(2);

    // Enforcement off: the rules are not the server's business; the cash is.
    clock.advance(1000);
    const broke = await placeOrder(user.client, { ...body, qty: 1000 });
    expect(broke.statusCode).toBe(422);
    expect(broke.json().error).toBe('insufficient_funds');
    const afterFunds = (await stateOf(db(), user.userId)) as { orders: { reject_reason: string }[] };
    expect(afterFunds.orders.map((o) => o.reject_reason)).toEqual(['trade_cooldown', 'compliance_violation', 'insufficient_funds']);
    expect({ ...afterFunds, orders: [] }).toEqual({ ...(before as object), orders: [] });
  });

  it('cooldown after recovery: both routes refused at +72 h − 1 ms, accepted at +72 h', async () => {
    const client = new HttpClient(off);
    const { userId, authenticator } = await signedInAccount(client, db());
    const until = isoAfter(clock, LIFETIMES.tradeCooldown);
    await setTradeCooldown(db(), userId, until);
    const equity = { symbol: 'SPY', side: 'buy', qty: 1 };
    const options = { underlying: 'SPY', legs: SPREAD_LEGS, qty: 1, net_price: -1 };
    for (const response of [await placeOrder(client, equity), await placeOptionsOrder(client, options)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'trade_cooldown', message: expect.stringContaining(until), until });
    }
    // The portfolio says so before any order is tried, for the Trade page's banner.
    expect((await client.get('/api/trade-window/portfolio')).json().trade_cooldown_until).toBe(until);
    const start = clock.now().getTime();
    clock.set(new Date(start + LIFETIMES.tradeCooldown - 1));
    // The session is 12 hours: sign in again, as the trader would.
    expect((await signIn(client, authenticator)).statusCode).toBe(200);
    expect((await placeOrder(client, equity)).statusCode).toBe(403);
    expect((await placeOptionsOrder(client, options)).statusCode).toBe(403);
    // Each refusal is in the history (DESIGN: a refused order is stored as rejected).
    expect((await orderRows(db(), userId)).map((row) => [row.status, row.reject_reason])).toEqual(Array(4).fill(['rejected', 'trade_cooldown']));
    expect((await client.get('/api/trade-window/portfolio')).json().trade_cooldown_until).toBe(until);
    clock.advance(1);
    expect((await client.get('/api/trade-window/portfolio')).json().trade_cooldown_until).toBeNull();
    expect((await placeOrder(client, equity)).statusCode).toBe(201);
    expect((await placeOptionsOrder(client, options)).statusCode).toBe(201);
    clock.set(new Date(start + 1000));
  });

  it('idempotency by client_order_id: the same body answers the first order, another body 409, a refusal repeats itself', async () => {
    const user = await trader();
    const body = { symbol: 'SPY', side: 'buy', qty: 2, client_order_id: 'ticket-1' };
    const first = await placeOrder(user.client, body);
    expect(first.statusCode).toBe(201);
    clock.advance(1000);
    const again = await placeOrder(user.client, { qty: 2, side: 'buy', client_order_id: 'ticket-1', symbol: 'SPY' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const conflict = await placeOrder(user.client, { ...body, qty: 3 });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toBe('idempotency_conflict');
    expect((await placeOptionsOrder(user.client, { underlying: 'SPY', legs: SPREAD_LEGS, qty: 1, net_price: -1, client_order_id: 'ticket-1' })).statusCode).toBe(409);
    expect((await orderRows(db(), user.userId)).length).toBe(1);

    const refused = { symbol: 'SPY', side: 'buy', qty: 1, strategy_id: user.equity, client_order_id: 'ticket-2' };
    const no = await placeOrder(user.onClient, refused);
    expect(no.statusCode).toBe(422);
    const noAgain = await placeOrder(user.onClient, refused);
    expect(noAgain.statusCode).toBe(422);
    expect(noAgain.json()).toEqual(no.json());
    // The first answer stands even where a later evaluation would differ (enforcement off on this server).
    expect((await placeOrder(user.client, refused)).json()).toEqual(no.json());
    expect((await orderRows(db(), user.userId)).length).toBe(2);

    // Keys are per user.
    const other = await trader();
    expect((await placeOrder(other.client, body)).statusCode).toBe(201);
    expect((await portfolioCash(user.client))).toBe(100000 - 944);
  });

  it('ownership: user B cannot see, cancel or trade on user A’s orders or strategy (404), and lists only their own', async () => {
    const a = await trader();
    const b = await trader();
    const resting = (await placeOrder(a.client, { symbol: 'SPY', side: 'buy', qty: 1, order_type: 'limit', limit_price: 400 })).json();
    expect((await b.client.get(`${ORDERS}/${resting.id}`)).statusCode).toBe(404);
    expect((await cancelOrder(b.client, resting.id)).statusCode).toBe(404);
    expect((await a.client.get(`${ORDERS}/${resting.id}`)).json().status).toBe('accepted');
    expect((await b.client.get(ORDERS)).json()).toEqual([]);
    const before = await stateOf(db(), b.userId);
    for (const client of [b.client, b.onClient]) {
      const onTheirs = await placeOrder(client, { symbol: 'SPY', side: 'sell', qty: 1, strategy_id: a.equity });
      expect(onTheirs.statusCode).toBe(404);
      expect((await placeOptionsOrder(client, { underlying: 'SPY', legs: SPREAD_LEGS, qty: 1, net_price: -1.5, strategy_id: a.spread })).statusCode).toBe(404);
    }
    expect(await stateOf(db(), b.userId)).toEqual(before);
  });

  async function portfolioCash(client: HttpClient): Promise<number> {
    return (await client.get('/api/trade-window/portfolio')).json().cash;
  }
});
