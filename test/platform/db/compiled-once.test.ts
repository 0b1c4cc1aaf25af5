import { CamelCasePlugin } from 'kysely';
import { expect, it } from 'vitest';
import { compiledOnce } from '../../../src/platform/db/compiled-once.js';
import { describeEachDialect } from '../../helpers/dialects.js';

const SYMBOL = '\u0000symbol';
const NAME = '\u0000name';

describeEachDialect('compiledOnce', (database) => {
  const lookup = compiledOnce([SYMBOL, NAME], (db) =>
    db.selectFrom('symbols').select(['symbol', 'name']).where('symbol', '=', SYMBOL).where('name', '<>', NAME).orderBy('symbol'),
  );

  it('runs one compiled statement with each call values in place of the placeholders', async () => {
    const { db } = database().handle;
    await db.insertInto('symbols').values([{ symbol: 'AAA', name: 'First', created_at: '2026-01-01T00:00:00.000Z' }, { symbol: 'BBB', name: 'Second', created_at: '2026-01-01T00:00:00.000Z' }]).execute();
    const first = lookup(db, ['AAA', 'zzz']);
    expect((await db.executeQuery(first)).rows).toEqual([{ symbol: 'AAA', name: 'First' }]);
    expect((await db.executeQuery(lookup(db, ['BBB', 'zzz']))).rows).toEqual([{ symbol: 'BBB', name: 'Second' }]);
    expect((await db.executeQuery(lookup(db, ['BBB', 'Second']))).rows).toEqual([]);
    expect(lookup(db, ['CCC', 'x']).sql).toBe(first.sql);
    expect(lookup(db, ['CCC', 'x']).parameters).toEqual(['CCC', 'x']);
  });

  it('refuses a build that does not use a placeholder as a parameter', () => {
    const wrong = compiledOnce([SYMBOL], (db) => db.selectFrom('symbols').select('symbol'));
    expect(() => wrong(database().handle.db, ['AAA'])).toThrow(/placeholder/);
  });
});

describeEachDialect('compiledOnce across transactions', (database) => {
  it('builds the statement once for a database and every transaction of it, and again for a plugin list that differs', async () => {
    let builds = 0;
    const lookup = compiledOnce([SYMBOL], (db) => {
      builds += 1;
      return db.selectFrom('symbols').select('symbol').where('symbol', '=', SYMBOL);
    });
    const { db } = database().handle;
    await db.insertInto('symbols').values({ symbol: 'AAA', name: 'First', created_at: '2026-01-01T00:00:00.000Z' }).execute();
    expect((await db.executeQuery(lookup(db, ['AAA']))).rows).toEqual([{ symbol: 'AAA' }]);
    await db.transaction().execute(async (trx) => {
      expect((await trx.executeQuery(lookup(trx, ['AAA']))).rows).toEqual([{ symbol: 'AAA' }]);
    });
    await db.transaction().execute(async (trx) => {
      expect((await trx.executeQuery(lookup(trx, ['BBB']))).rows).toEqual([]);
    });
    expect(builds).toBe(1);
    const withPlugin = db.withPlugin(new CamelCasePlugin());
    lookup(withPlugin, ['AAA']);
    expect(builds).toBe(2);
  });
});
