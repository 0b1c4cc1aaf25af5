import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { createTestDatabase, DIALECTS } from '../helpers/dialects.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { bar, orderRows, placeOrder, portfolioOf, seedBars } from './trading-kit.js';

/**
 * Two app instances on one PostgreSQL schema, each with its own pool: the same order sent to both at once (a
 * client's retry racing its first try through a load balancer) places one order, and a user's concurrent orders
 * never spend the same cash twice. PostgreSQL only (SQLite has one writer).
 */
const describePostgres = DIALECTS.includes('postgres') ? describe : describe.skip;

describePostgres('trade window on two instances of one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: App;
  let b: App;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    a = await buildTestApp(database.handle);
    b = await buildTestApp(database.openAnother());
    await seedBars(database.handle.db, { now: () => new Date() }, 'SPY', [bar('2026-03-06', 400)]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('the same client_order_id sent to A and B at once places one order; both answers carry it', async () => {
    const onA = new HttpClient(a);
    const { userId } = await signedInAccount(onA, database.handle.db);
    const onB = onA.on(b);
    for (let round = 0; round < 5; round += 1) {
      const body = { symbol: 'SPY', side: 'buy', qty: 1, client_order_id: `retry-${round}` };
      const answers = await Promise.all([placeOrder(onA, body), placeOrder(onB, body), placeOrder(onA, body), placeOrder(onB, body)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.json().id)).size).toBe(1);
    }
    expect(await orderRows(database.handle.db, userId)).toHaveLength(5);
    expect((await portfolioOf(onA)).cash).toBe(98000);
  });

  it('concurrent orders of one user on both instances never overspend the cash', async () => {
    const onA = new HttpClient(a);
    await signedInAccount(onA, database.handle.db);
    const onB = onA.on(b);
    // 100,000 buys 250 shares at 400: ten orders of 30 at once, at most 8 can fill.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => placeOrder(i % 2 ? onA : onB, { symbol: 'SPY', side: 'buy', qty: 30 })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(8);
    expect(answers.filter((r) => r.statusCode === 422).every((r) => r.json().error === 'insufficient_funds')).toBe(true);
    expect(await portfolioOf(onA)).toMatchObject({ cash: 4000, positions: [{ symbol: 'SPY', qty: 240 }] });
  });
});
