import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

describeEachDialect('invalid_rule over HTTP', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;
  let existing: { id: number };

  beforeAll(async () => {
    app = await buildTestApp(database().handle);
    ann = await libraryUser(app, db());
    existing = await createStrategy(ann, { name: 'Kept', strategy_type: 'equity_long', entry_rule: 'close > 1' });
  });
  afterAll(async () => app.close());

  it.each(['entry_rule', 'exit_rule'])('answers 400 invalid_rule naming %s, the grammar’s message and its column; stores nothing', async (field) => {
    const before = await strategyRows(db());
    const source = 'close > smaa(close, 3)';
    for (const response of [
      await ann.client.post('/api/strategies', { name: 'Bad rule', strategy_type: 'equity_long', [field]: source }),
      await ann.client.request('PATCH', `/api/strategies/${existing.id}`, { [field]: source }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_rule',
        message: 'column 9: unknown function "smaa" (did you mean "sma"?)',
        details: [{ field: `body.${field}`, message: 'column 9: unknown function "smaa" (did you mean "sma"?)', column: 9 }],
      });
    }
    expect(await strategyRows(db())).toEqual(before);
  });
});
