import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/platform/db/database.js';
import { namingStatements } from '../../../src/platform/db/pg-named-statements.js';
import { POSTGRES_URL } from '../../helpers/dialects.js';

const title = POSTGRES_URL ? 'PostgreSQL named statements' : 'PostgreSQL named statements [SKIPPED, TEST_DATABASE_URL not set]';

describe.skipIf(!POSTGRES_URL)(title, () => {
  const schema = `t_named_${randomBytes(4).toString('hex')}`;
  let pool: pg.Pool | undefined;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}; create table ${schema}.t (n integer); insert into ${schema}.t values (1), (2), (3)`);
    await admin.end();
  });
  afterEach(async () => {
    await pool?.end();
    await handle?.close();
    pool = handle = undefined;
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  /** One connection, so that the server's list of prepared statements is that connection's. */
  function namingPool(perConnection?: number): pg.Pool {
    pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1, options: `-c search_path=${schema}` });
    namingStatements(pool, perConnection);
    return pool;
  }

  async function preparedTexts(on: pg.Pool): Promise<string[]> {
    const { rows } = await on.query<{ statement: string }>('select statement from pg_prepared_statements order by statement');
    return rows.map((row) => row.statement);
  }

  it('a parameterised query is prepared once per connection under a name, then only executed', async () => {
    const on = namingPool();
    expect((await on.query('select n from t where n > $1 order by n', [1])).rows).toEqual([{ n: 2 }, { n: 3 }]);
    expect((await on.query('select n from t where n > $1 order by n', [2])).rows).toEqual([{ n: 3 }]);
    expect(await preparedTexts(on)).toEqual(['select n from t where n > $1 order by n']);
  });

  it('queries without parameters stay unnamed, so several statements in one text still run', async () => {
    const on = namingPool();
    await on.query('begin; select 1; commit', []);
    expect((await on.query('select count(*)::int as c from t', [])).rows).toEqual([{ c: 3 }]);
    expect(await preparedTexts(on)).toEqual([]);
  });

  it('a connection names at most its limit of texts; later texts still run, unnamed', async () => {
    const on = namingPool(2);
    for (const bound of [0, 1, 2]) {
      expect((await on.query(`select count(*)::int as c from t where n > $1 and ${bound} = ${bound}`, [bound])).rows).toEqual([{ c: 3 - bound }]);
    }
    expect(await preparedTexts(on)).toHaveLength(2);
    expect((await on.query('select count(*)::int as c from t where n > $1 and 0 = 0', [0])).rows).toEqual([{ c: 3 }]);
  });

  it('a text the server refuses is not recorded as prepared: it fails again with the same error, the connection goes on', async () => {
    const on = namingPool();
    await expect(on.query('select nope from t where n = $1', [1])).rejects.toThrow(/nope/);
    await expect(on.query('select nope from t where n = $1', [1])).rejects.toThrow(/nope/);
    expect((await on.query('select n from t where n = $1', [1])).rows).toEqual([{ n: 1 }]);
  });

  it('openDatabase names the parameterised queries Kysely sends', async () => {
    handle = openDatabase({ url: POSTGRES_URL!, sqlitePath: '', pgSchema: schema, pgPoolSize: 1 });
    const query = handle.db.selectFrom('t' as never).select(sql<number>`n`.as('n')).where(sql`n`, '=', 2);
    expect(await query.execute()).toEqual([{ n: 2 }]);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db);
    expect(rows.map((row) => row.statement)).toEqual([query.compile().sql]);
  });
});
