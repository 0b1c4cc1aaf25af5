import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

describeEachDialect('rule texts checked by the real grammar', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(database().handle);
    ann = await libraryUser(app, db());
  });
  afterAll(async () => app.close());

  it('accepts the rules DESIGN shows', async () => {
    const created = await createStrategy(ann, {
      name: 'Crossover',
      strategy_type: 'equity_long',
      entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
      exit_rule: 'rsi(close, 14) < 30 and close > sma(close, 200)',
    });
    expect(created.entry_rule).toBe('crosses_above(sma(close, 10), sma(close, 30))');
  });

  it('refuses an unknown function with 400 invalid_rule at column 1, on create and update', async () => {
    const kept = await createStrategy(ann, { name: 'Kept', strategy_type: 'equity_long', exit_rule: 'close > 1' });
    const before = await strategyRows(db());
    for (const response of [
      await ann.client.post('/api/strategies', { name: 'Typo', strategy_type: 'equity_long', entry_rule: 'smaa(close, 3) > 1' }),
      await ann.client.request('PATCH', `/api/strategies/${kept.id}`, { entry_rule: 'smaa(close, 3) > 1' }),
    ]) {
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error).toBe('invalid_rule');
      expect(body.message).toMatch(/^column 1: .*unknown function/);
      expect(body.details).toEqual([{ field: 'body.entry_rule', message: body.message, column: 1 }]);
    }
    const exit = await ann.client.post('/api/strategies', { name: 'Typo', strategy_type: 'equity_long', exit_rule: 'close > smaa(close, 3)' });
    expect(exit.json()).toMatchObject({ error: 'invalid_rule', details: [{ field: 'body.exit_rule', column: 9 }] });
    expect(await strategyRows(db())).toEqual(before);
  });
});
