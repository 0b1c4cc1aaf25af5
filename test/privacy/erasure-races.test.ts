import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { signedInAccount, type SignedInAccount } from '../helpers/accounts.js';
import { createTestDatabase, DIALECTS, POSTGRES_URL, type TestDatabase } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';
import { waitUntil } from '../faults/support/processes.js';
import { countBlockedBy, holdRowLock } from '../faults/support/row-lock.js';
import { bar, orderRows, placeOrder, seedBars } from '../trading/trading-kit.js';
import { GDPR, stepUpAssertion } from './privacy-kit.js';

/**
 * Orders sent by a session while its account is erased, through two app instances on one database (two pools, as
 * two processes behind a load balancer): whatever the interleaving, no order is stored after `deleted_at`, nothing
 * of the account rests or fills after it, and the erasure answers 202 at the first try.
 */
for (const dialect of DIALECTS) {
  describe(`erasure racing the account's own orders on two instances [${dialect}]`, () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let a: App;
    let b: App;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      a = await buildTestApp(database.handle);
      b = await buildTestApp(database.openAnother());
      await seedBars(database.handle.db, { now: () => new Date() }, 'SPY', [bar('2026-03-06', 400)]);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    /** A signed-in trader (its paper account opened by a filled order) on A, the same session on B too. */
    async function trader(): Promise<{ account: SignedInAccount; clients: HttpClient[] }> {
      const account = await signedInAccount(new HttpClient(a), database.handle.db);
      expect((await placeOrder(account.client, { symbol: 'SPY', side: 'buy', qty: 1 })).statusCode).toBe(201);
      return { account, clients: [account.client, account.client.on(b)] };
    }

    const restingBuy = (client: HttpClient) => placeOrder(client, { symbol: 'SPY', side: 'buy', qty: 1, order_type: 'limit', limit_price: 390 });

    /**
     * Every order placed is in before the erasure and canceled by it, with the `earlier` ones still resting; every
     * later one was refused 401 and not stored.
     */
    async function expectNothingTradedAfterErasure(userId: string, erase: LightMyRequestResponse, orders: LightMyRequestResponse[], earlier = 0) {
      expect(erase.statusCode, erase.body).toBe(202);
      const deletedAt = erase.json().deleted_at as string;
      const rows = await orderRows(database.handle.db, userId);
      expect(rows.filter((row) => row.created_at > deletedAt).map((row) => [row.created_at, row.status])).toEqual([]);
      expect(rows.filter((row) => row.status === 'accepted')).toEqual([]);
      expect(rows.filter((row) => row.status === 'filled')).toHaveLength(1);
      expect(orders.map((r) => r.statusCode).filter((status) => status !== 201 && status !== 401), orders.map((r) => r.body).join(' | ')).toEqual([]);
      const placed = orders.filter((r) => r.statusCode === 201).map((r) => r.json().id as string);
      expect(rows.filter((row) => placed.includes(row.id)).map((row) => row.status)).toEqual(placed.map(() => 'canceled'));
      expect(rows).toHaveLength(1 + earlier + placed.length);
    }

    it('many limit orders from the session while it erases the account, several rounds', async () => {
      for (let round = 0; round < 4; round += 1) {
        const { account, clients } = await trader();
        const assertion = await stepUpAssertion(account);
        const orders = Array.from({ length: 12 }, (_, i) => restingBuy(clients[i % 2]!));
        const erase = account.client.post(`${GDPR}/erase`, { credential: assertion });
        await expectNothingTradedAfterErasure(account.userId, await erase, await Promise.all(orders));
      }
    });

    // PostgreSQL: the orders are held inside their transaction (behind a lock on the paper account this test holds)
    // while the erasure is sent, the interleaving that stored orders after deleted_at. SQLite's single writer has no
    // such interleaving, so the case exists on PostgreSQL only (declared there, not skipped elsewhere).
    if (dialect === 'postgres') it('orders held mid-transaction when the erasure comes are either in before it (and canceled) or refused', async () => {
      const { account, clients } = await trader();
      // One resting already: the erasure must take the account's lock to cancel it.
      expect((await restingBuy(account.client)).statusCode).toBe(201);
      const assertion = await stepUpAssertion(account);
      // Open every pool's connections now: a held order fails at the pool's statement timeout (10 s), so everything
      // below must happen well within it.
      await Promise.all(Array.from({ length: 16 }, (_, i) => clients[i % 2]!.get('/api/trade-window/portfolio')));
      const lock = await holdRowLock(POSTGRES_URL!, (database as TestDatabase).handle.schema!, 'select * from paper_accounts where user_id = $1 for update', [account.userId]);
      let erasing: Promise<LightMyRequestResponse> | undefined;
      try {
        const orders = Promise.all(Array.from({ length: 4 }, (_, i) => restingBuy(clients[i % 2]!)));
        await waitUntil('the four orders wait on the account', async () => (await countBlockedBy(POSTGRES_URL!, lock)) >= 4, 8_000);
        let erased = false;
        erasing = account.client.post(`${GDPR}/erase`, { credential: assertion }).finally(() => (erased = true));
        // The erasure either finishes while the orders wait, or waits behind them: either way, then let them go.
        await waitUntil('the erasure is answered or waits', async () => erased || (await countBlockedBy(POSTGRES_URL!, lock)) >= 5, 8_000);
        await lock.release();
        await expectNothingTradedAfterErasure(account.userId, await erasing, await orders, 1);
      } finally {
        await lock.release().catch(() => undefined);
        await erasing?.catch(() => undefined);
      }
    });
  });
}
