import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { MAX_STRATEGIES_PER_USER } from '../../src/strategies/strategies.schema.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

describeEachDialect('a library holds at most 1,000 strategies', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(database().handle);
    ann = await libraryUser(app, db());
    const at = new Date().toISOString();
    const rows = Array.from({ length: MAX_STRATEGIES_PER_USER - 1 }, (_, i) => ({
      user_id: ann.userId,
      name: `s${i}`,
      strategy_type: 'equity_long' as const,
      is_active: true,
      entry_symbol_allowlist: null,
      entry_max_position_size: null,
      entry_allowed_sides: null,
      credit_min_amount: null,
      exit_profit_target_pct: null,
      exit_stop_loss_pct: null,
      exit_max_dte: null,
      entry_rule: null,
      exit_rule: null,
      created_at: at,
      updated_at: at,
    }));
    for (let start = 0; start < rows.length; start += 200) await db().insertInto('strategies').values(rows.slice(start, start + 200)).execute();
  });
  afterAll(async () => app.close());

  it('creates the 1,000th, refuses the next with 409 strategy_limit_reached changing nothing, and takes one again after a delete', async () => {
    expect(MAX_STRATEGIES_PER_USER).toBe(1_000);
    const last = await createStrategy(ann, { name: 'the thousandth', strategy_type: 'custom' });
    const before = await strategyRows(db());
    const refused = await ann.client.post('/api/strategies', { name: 'one too many', strategy_type: 'custom' });
    expect(errorOf(refused)).toMatchObject({ status: 409, error: 'strategy_limit_reached' });
    expect(refused.json().message).toContain('1,000');
    expect(await strategyRows(db())).toEqual(before);

    // Another user's library is not counted.
    const bob = await libraryUser(app, db());
    await createStrategy(bob, { name: 'Bob’s first', strategy_type: 'custom' });

    expect((await ann.client.request('DELETE', `/api/strategies/${last.id}`)).statusCode).toBe(204);
    await createStrategy(ann, { name: 'after a delete', strategy_type: 'custom' });
  });

  it('pages the active picker over a full library: 50 by default, 200 at most, the total in X-Total-Count', async () => {
    const first = await ann.client.get('/api/strategies/active');
    expect(first.json()).toHaveLength(50);
    expect(first.headers['x-total-count']).toBe('1000');
    const largest = await ann.client.get('/api/strategies/active?limit=200&offset=900');
    expect(largest.json()).toHaveLength(100);
    expect(largest.json()[99]).toMatchObject({ name: 'after a delete' });
  });
});
