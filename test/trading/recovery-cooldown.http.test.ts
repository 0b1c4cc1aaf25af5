import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { LIFETIMES } from '../../src/auth/lifetimes.js';
import { setTradeCooldown } from '../../src/auth/users.repo.js';
import { isoAfter } from '../../src/platform/clock.js';
import { latestLinkToken, newAuthenticator, signedInAccount, signIn } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';
import { bar, importBars, orderRows, placeOptionsOrder, placeOrder, portfolioOf, seedBars, stateOf } from './trading-kit.js';

/**
 * A recovery stops what was queued as well as what is new: whoever held the account may have left limit orders
 * resting, and the 72-hour cooldown must keep them from filling.
 */
describeEachDialect('trade window: recovery and its cooldown', (database, dialect) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await seedBars(db(), clock, 'SPY', [bar('2026-03-06', 400)]);
  });
  afterAll(async () => app?.close());

  /** Who canceled each order and why, from the audit log. */
  async function cancellations(orderIds: readonly string[]): Promise<[string | null, string][]> {
    const rows = await db().selectFrom('audit_entries').select(['actor_user_id', 'context']).where('action', '=', 'order.cancel').where('target_id', 'in', orderIds).orderBy('id').execute();
    return rows.map((row) => [row.actor_user_id, JSON.parse(row.context!).reason]);
  }

  /** A trader holding 10 SPY with a resting buy at 390 and a resting sell at 410. */
  async function traderWithRestingOrders() {
    const account = await signedInAccount(new HttpClient(app), db());
    expect((await placeOrder(account.client, { symbol: 'SPY', side: 'buy', qty: 10 })).statusCode).toBe(201);
    clock.advance(1000);
    const buy = (await placeOrder(account.client, { symbol: 'SPY', side: 'buy', qty: 1, order_type: 'limit', limit_price: 390 })).json();
    clock.advance(1000);
    const sell = (await placeOrder(account.client, { symbol: 'SPY', side: 'sell', qty: 1, order_type: 'limit', limit_price: 410 })).json();
    expect([buy.status, sell.status]).toEqual(['accepted', 'accepted']);
    return { ...account, resting: [buy.id as string, sell.id as string] };
  }

  /** A bar newer than every order's rest that reaches both limits (low 380, high 420). */
  let barDay = 9;
  const newerBarReachingBoth = () => importBars(db(), dialect, clock, 'SPY', [bar(`2026-03-${String((barDay += 1)).padStart(2, '0')}`, 400, { low: 380, high: 420 })]);

  it('recovery cancels the resting orders in its transaction (audited), so a newer bar fills nothing during the cooldown', async () => {
    const ann = await traderWithRestingOrders();
    const before = await portfolioOf(ann.client);

    const stranger = new HttpClient(app);
    expect((await stranger.post('/api/auth/recovery/start', { email: ann.email })).statusCode).toBe(202);
    const token = await latestLinkToken(db(), ann.email, 'recover');
    const options = await stranger.post('/api/auth/recovery/complete', { token });
    const completed = await stranger.post('/api/auth/recovery/complete', { token, credential: newAuthenticator().createCredential(options.json()) });
    expect(completed.statusCode, completed.body).toBe(200);

    const now = clock.now().toISOString();
    const rows = await orderRows(db(), ann.userId);
    expect(rows.filter((row) => ann.resting.includes(row.id)).map((row) => [row.status, row.updated_at])).toEqual([
      ['canceled', now],
      ['canceled', now],
    ]);
    expect(await cancellations(ann.resting)).toEqual([
      [ann.userId, 'credentials_reset'],
      [ann.userId, 'credentials_reset'],
    ]);

    await newerBarReachingBoth();
    expect((await orderRows(db(), ann.userId)).map((row) => row.status)).toEqual(['filled', 'canceled', 'canceled']);
    // Nothing was held back any more, and nothing moved.
    expect(await portfolioOf(stranger)).toMatchObject({ cash: before.cash, reserved_cash: 0, positions: [{ symbol: 'SPY', qty: 10 }] });
  });

  it('the fill job never fills for an account in cooldown: an order left resting through one is canceled by the system', async () => {
    const bea = await traderWithRestingOrders();
    // A cooldown with orders resting through it, as an older version of the service left it.
    await setTradeCooldown(db(), bea.userId, isoAfter(clock, LIFETIMES.tradeCooldown));
    const before = await portfolioOf(bea.client);

    await newerBarReachingBoth();
    expect((await orderRows(db(), bea.userId)).map((row) => row.status)).toEqual(['filled', 'canceled', 'canceled']);
    expect(await cancellations(bea.resting)).toEqual([
      [null, 'trade_cooldown'],
      [null, 'trade_cooldown'],
    ]);
    expect(await portfolioOf(bea.client)).toMatchObject({ cash: before.cash, reserved_cash: 0, positions: [{ symbol: 'SPY', qty: 10 }] });
  });

  it('a cooldown refusal is stored as a rejected order, its client_order_id repeats the 403, and reset is refused too', async () => {
    const cleo = await signedInAccount(new HttpClient(app), db());
    expect((await placeOrder(cleo.client, { symbol: 'SPY', side: 'buy', qty: 3 })).statusCode).toBe(201);
    clock.advance(1000);
    const until = isoAfter(clock, LIFETIMES.tradeCooldown);
    await setTradeCooldown(db(), cleo.userId, until);
    clock.advance(1000);

    const body = { symbol: 'SPY', side: 'buy', qty: 1, client_order_id: 'after-recovery' };
    const refused = await placeOrder(cleo.client, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'trade_cooldown', message: expect.stringContaining(until), until });
    const stored = (await orderRows(db(), cleo.userId)).at(-1)!;
    expect(stored).toMatchObject({ status: 'rejected', reject_reason: 'trade_cooldown', client_order_id: 'after-recovery', qty: 1 });
    const history = (await cleo.client.get('/api/trade-window/orders?status=rejected')).json();
    expect(history.map((order: { id: string; reject_reason: string }) => [order.id, order.reject_reason])).toEqual([[stored.id, 'trade_cooldown']]);
    const audited = await db().selectFrom('audit_entries').select('action').where('target_id', '=', stored.id).orderBy('id').execute();
    expect(audited.map((row) => row.action)).toEqual(['order.submit', 'order.reject']);

    // The same key repeats the same answer, and stores nothing more.
    clock.advance(1000);
    const again = await placeOrder(cleo.client, body);
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 403, body: refused.json() });
    clock.advance(1000);
    const options = await placeOptionsOrder(cleo.client, { underlying: 'SPY', legs: [{ symbol: 'SPY261218C00450000', side: 'buy', ratio: 1 }], qty: 1, net_price: 3 });
    expect(options.statusCode).toBe(403);
    expect((await orderRows(db(), cleo.userId)).map((row) => row.status)).toEqual(['filled', 'rejected', 'rejected']);

    // Reset would cancel nothing queued (there is nothing) but hands back fresh cash: refused while the cooldown holds.
    const state = await stateOf(db(), cleo.userId);
    const reset = await cleo.client.post('/api/trade-window/portfolio/reset');
    expect(reset.statusCode).toBe(403);
    expect(reset.json()).toEqual({ error: 'trade_cooldown', message: expect.stringContaining(until), until });
    expect(await stateOf(db(), cleo.userId)).toEqual(state);
    clock.set(until);
    // (The session lasts 12 hours: sign in again, as the trader would.)
    expect((await signIn(cleo.client, cleo.authenticator)).statusCode).toBe(200);
    expect((await cleo.client.post('/api/trade-window/portfolio/reset')).statusCode).toBe(200);
  });
});
