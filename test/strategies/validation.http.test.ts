import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, FULL_STRATEGY, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

const long = (n: number) => 'x'.repeat(n);

/** field, bad value, error code: each a 400 on create and on update, storing nothing. */
const REFUSALS: [field: string, value: unknown, error: string][] = [
  ['name', '', 'validation_failed'],
  ['name', '    ', 'validation_failed'],
  ['name', long(101), 'validation_failed'],
  ['name', 42, 'validation_failed'],
  ['name', null, 'validation_failed'],
  ['description', long(2001), 'validation_failed'],
  ['description', 7, 'validation_failed'],
  ['strategy_type', 'straddle', 'validation_failed'],
  ['strategy_type', 'EQUITY_LONG', 'validation_failed'],
  ['strategy_type', null, 'validation_failed'],
  ['is_active', 'yes', 'validation_failed'],
  ['is_active', 1, 'validation_failed'],
  ['is_active', null, 'validation_failed'],
  ['entry_symbol_allowlist', 'spy', 'validation_failed'],
  ['entry_symbol_allowlist', 'SPY,,QQQ', 'validation_failed'],
  ['entry_symbol_allowlist', 'SPY,', 'validation_failed'],
  ['entry_symbol_allowlist', 'SPY;QQQ', 'validation_failed'],
  ['entry_symbol_allowlist', 'SPY,QQQ,SPY', 'validation_failed'],
  ['entry_symbol_allowlist', Array.from({ length: 101 }, (_, i) => `S${i}`).join(','), 'validation_failed'],
  ['entry_symbol_allowlist', ['SPY'], 'validation_failed'],
  ['entry_max_position_size', 0, 'validation_failed'],
  ['entry_max_position_size', -100, 'validation_failed'],
  ['entry_max_position_size', '5000', 'validation_failed'],
  ['entry_allowed_sides', 'both', 'validation_failed'],
  ['entry_allowed_sides', 'sell,buy', 'validation_failed'],
  ['entry_allowed_sides', 'BUY', 'validation_failed'],
  ['credit_min_amount', 0, 'validation_failed'],
  ['credit_min_amount', -0.5, 'validation_failed'],
  ['exit_profit_target_pct', 0, 'validation_failed'],
  ['exit_profit_target_pct', 10.01, 'validation_failed'],
  ['exit_profit_target_pct', -0.2, 'validation_failed'],
  ['exit_stop_loss_pct', 0, 'validation_failed'],
  ['exit_stop_loss_pct', -1.01, 'validation_failed'],
  ['exit_stop_loss_pct', 0.5, 'validation_failed'],
  ['exit_trailing_stop_pct', 0, 'validation_failed'],
  ['exit_trailing_stop_pct', 1, 'validation_failed'],
  ['exit_trailing_stop_pct', -0.1, 'validation_failed'],
  ['exit_trailing_stop_pct', '0.1', 'validation_failed'],
  ['exit_max_dte', 0, 'validation_failed'],
  ['exit_max_dte', -3, 'validation_failed'],
  ['exit_max_dte', 1.5, 'validation_failed'],
  ['exit_max_dte', 3651, 'validation_failed'],
  ['exit_max_dte', '30', 'validation_failed'],
  ['entry_rule', 123, 'validation_failed'],
  ['entry_rule', long(2001), 'validation_failed'],
  ['exit_rule', false, 'validation_failed'],
  ['leverage', 3, 'validation_failed'],
  ['id', 99, 'validation_failed'],
  ['user_id', 'someone-else', 'validation_failed'],
  ['created_at', '2020-01-01T00:00:00.000Z', 'validation_failed'],
];

describeEachDialect('Strategy Library validation over HTTP', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;
  let existing: { id: number };

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock: new ManualClock('2026-03-03T10:00:00.000Z') });
    ann = await libraryUser(app, db());
    existing = await createStrategy(ann, FULL_STRATEGY);
  });
  afterAll(async () => app.close());

  it.each(REFUSALS)('refuses %s = %j on create and on update with 400, storing nothing', async (field, value, error) => {
    const before = await strategyRows(db());
    const created = await ann.client.post('/api/strategies', { name: 'Valid', strategy_type: 'custom', [field]: value });
    expect(errorOf(created)).toMatchObject({ status: 400, error });
    expect(errorOf(created).text).toContain(field);
    const patched = await ann.client.request('PATCH', `/api/strategies/${existing.id}`, { [field]: value });
    expect(errorOf(patched)).toMatchObject({ status: 400, error });
    expect(errorOf(patched).text).toContain(field);
    expect(await strategyRows(db())).toEqual(before);
  });

  it.each([
    ['no name', { strategy_type: 'custom' }, 'body.name'],
    ['no strategy_type', { name: 'x' }, 'body.strategy_type'],
    ['an empty object', {}, 'body.name'],
  ])('refuses a create with %s', async (_case, body, field) => {
    const before = await strategyRows(db());
    const response = await ann.client.post('/api/strategies', body);
    expect(errorOf(response)).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(errorOf(response).text).toContain(field);
    expect(await strategyRows(db())).toEqual(before);
  });

  it.each([
    ['an empty object', {}],
    ['an array', [{ name: 'x' }]],
    ['a string', '"name"'],
  ])('refuses an update with %s as the body', async (_case, body) => {
    const before = await strategyRows(db());
    const response = await ann.client.request('PATCH', `/api/strategies/${existing.id}`, body);
    expect(errorOf(response)).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(await strategyRows(db())).toEqual(before);
  });

  it('refuses an update without a body, and a body that is not JSON', async () => {
    const before = await strategyRows(db());
    expect(errorOf(await ann.client.request('PATCH', `/api/strategies/${existing.id}`))).toMatchObject({ status: 400 });
    const notJson = await ann.client.request('PATCH', `/api/strategies/${existing.id}`, '{"name":', {});
    expect(errorOf(notJson)).toMatchObject({ status: 400, error: 'malformed_json' });
    expect(await strategyRows(db())).toEqual(before);
  });

  it('accepts the edges of every range', async () => {
    const created = await createStrategy(ann, {
      name: 'x'.repeat(100),
      description: 'd'.repeat(2000),
      strategy_type: 'iron_condor',
      entry_symbol_allowlist: Array.from({ length: 100 }, (_, i) => `S${i}`).join(' , '),
      entry_max_position_size: 0.01,
      entry_allowed_sides: 'buy,sell',
      credit_min_amount: 0.01,
      exit_profit_target_pct: 10,
      exit_stop_loss_pct: -1,
      exit_max_dte: 3650,
    });
    expect(created).toMatchObject({ exit_profit_target_pct: 10, exit_stop_loss_pct: -1, exit_max_dte: 3650, entry_allowed_sides: 'buy,sell' });
    expect(String(created.entry_symbol_allowlist).split(',')).toHaveLength(100);
    const low = await createStrategy(ann, { name: 'low', strategy_type: 'custom', exit_profit_target_pct: 0.0001, exit_stop_loss_pct: -0.0001, exit_trailing_stop_pct: 0.0001, exit_max_dte: 1 });
    expect(low).toMatchObject({ exit_profit_target_pct: 0.0001, exit_stop_loss_pct: -0.0001, exit_trailing_stop_pct: 0.0001, exit_max_dte: 1 });
    const high = await createStrategy(ann, { name: 'high', strategy_type: 'custom', exit_trailing_stop_pct: 0.9999 });
    expect(high).toMatchObject({ exit_trailing_stop_pct: 0.9999 });
    // null clears it, and a strategy that never named one has none.
    const cleared = await ann.client.request('PATCH', `/api/strategies/${high.id}`, { exit_trailing_stop_pct: null });
    expect(cleared.json()).toMatchObject({ exit_trailing_stop_pct: null });
    expect(await createStrategy(ann, { name: 'none', strategy_type: 'custom' })).toMatchObject({ exit_trailing_stop_pct: null });
  });

  it('keeps cross-field combinations permissive (a credit minimum on an equity strategy is stored)', async () => {
    const created = await createStrategy(ann, { name: 'Odd but allowed', strategy_type: 'equity_long', credit_min_amount: 1, exit_max_dte: 30 });
    expect(created).toMatchObject({ credit_min_amount: 1, exit_max_dte: 30 });
  });
});
