import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, FULL_STRATEGY, libraryUser, type LibraryUser } from './library-kit.js';

describeEachDialect('Strategy Library ownership: user B and user A’s strategy', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;
  let bob: LibraryUser;
  let annsStrategy: Record<string, unknown> & { id: number };
  let annsRow: unknown;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock: new ManualClock('2026-03-03T10:00:00.000Z') });
    ann = await libraryUser(app, db());
    bob = await libraryUser(app, db());
    annsStrategy = await createStrategy(ann, FULL_STRATEGY);
    await createStrategy(ann, { name: 'Ann inactive', strategy_type: 'equity_long', is_active: false });
    await createStrategy(bob, { name: 'Bob’s own', strategy_type: 'equity_short' });
    annsRow = await db().selectFrom('strategies').selectAll().where('id', '=', annsStrategy.id).executeTakeFirstOrThrow();
  });
  afterAll(async () => app.close());

  /** The 404 for an id nobody has, to compare against: B must not be able to tell A's id from a missing one. */
  async function missingIdBody(method: 'GET' | 'PATCH' | 'DELETE', body?: object): Promise<unknown> {
    const missing = annsStrategy.id + 1000;
    const response = await bob.client.request(method, `/api/strategies/${missing}`, body);
    return JSON.parse(response.body.replaceAll(String(missing), String(annsStrategy.id)));
  }

  it('B lists only B’s own strategies, in the list, the active picker and the totals', async () => {
    const list = await bob.client.get('/api/strategies');
    expect(list.json().map((s: { name: string }) => s.name)).toEqual(['Bob’s own']);
    expect(list.headers['x-total-count']).toBe('1');
    const active = await bob.client.get('/api/strategies?active_only=1&limit=200');
    expect(active.json().map((s: { name: string }) => s.name)).toEqual(['Bob’s own']);
    expect((await bob.client.get('/api/strategies/active')).json().map((s: { name: string }) => s.name)).toEqual(['Bob’s own']);
    expect((await ann.client.get('/api/strategies')).headers['x-total-count']).toBe('2');
  });

  it('B cannot read A’s strategy: 404 not_found, the same body as for an id nobody has', async () => {
    const response = await bob.client.get(`/api/strategies/${annsStrategy.id}`);
    expect(errorOf(response)).toMatchObject({ status: 404, error: 'not_found' });
    expect(response.json()).toEqual(await missingIdBody('GET'));
  });

  it('B cannot change A’s strategy (404), and A’s row is unchanged', async () => {
    const response = await bob.client.request('PATCH', `/api/strategies/${annsStrategy.id}`, { name: 'Stolen', is_active: false });
    expect(errorOf(response)).toMatchObject({ status: 404, error: 'not_found' });
    expect(response.json()).toEqual(await missingIdBody('PATCH', { name: 'Stolen' }));
    expect(await db().selectFrom('strategies').selectAll().where('id', '=', annsStrategy.id).executeTakeFirst()).toEqual(annsRow);
  });

  it('B cannot delete A’s strategy (404), and it is still there', async () => {
    const response = await bob.client.request('DELETE', `/api/strategies/${annsStrategy.id}`);
    expect(errorOf(response)).toMatchObject({ status: 404, error: 'not_found' });
    expect(response.json()).toEqual(await missingIdBody('DELETE'));
    expect(await db().selectFrom('strategies').selectAll().where('id', '=', annsStrategy.id).executeTakeFirst()).toEqual(annsRow);
  });

  it('B cannot check a trade against A’s strategy (404), nor learn anything of it', async () => {
    const trade = { symbol: 'SPY', qty: 1, side: 'sell', price: 1 };
    const response = await bob.client.post('/api/trading/compliance-check', { strategy_id: annsStrategy.id, ...trade });
    expect(errorOf(response)).toMatchObject({ status: 404, error: 'not_found' });
    expect(response.body).not.toContain(String(FULL_STRATEGY.name));
    const missing = await bob.client.post('/api/trading/compliance-check', { strategy_id: annsStrategy.id + 1000, ...trade });
    expect(response.json()).toEqual(JSON.parse(missing.body.replaceAll(String(annsStrategy.id + 1000), String(annsStrategy.id))));
    // A, the owner, can.
    expect((await ann.client.post('/api/trading/compliance-check', { strategy_id: annsStrategy.id, ...trade })).statusCode).toBe(200);
  });

  it('writes no audit entry for B’s refused attempts', async () => {
    const bobs = await db().selectFrom('audit_entries').select('action').where('actor_user_id', '=', bob.userId).where('action', 'like', 'strategy.%').execute();
    expect(bobs.map((row) => row.action)).toEqual(['strategy.create']);
  });

  it('A still sees the strategy exactly as created', async () => {
    expect((await ann.client.get(`/api/strategies/${annsStrategy.id}`)).json()).toEqual(annsStrategy);
  });
});
