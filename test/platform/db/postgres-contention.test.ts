import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/platform/db/database.js';
import { databaseFault } from '../../../src/platform/db/database-faults.js';
import { POSTGRES_URL } from '../../helpers/dialects.js';

const title = POSTGRES_URL ? 'PostgreSQL contention' : 'PostgreSQL contention [SKIPPED, TEST_DATABASE_URL not set]';

/**
 * A deadlock or a serialization failure is the server aborting one transaction so another can go on: a retry
 * succeeds, so the client gets 503 `busy` with Retry-After, not a 500. Produced here for real, through the app's
 * own database handle, so the test sees the error exactly as the handler does.
 */
describe.skipIf(!POSTGRES_URL)(title, () => {
  const schema = `t_contention_${randomBytes(4).toString('hex')}`;
  let handle: DatabaseHandle;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}; create table ${schema}.accounts (id integer primary key, cash integer); insert into ${schema}.accounts values (1, 0), (2, 0)`);
    await admin.end();
    handle = openDatabase({ url: POSTGRES_URL!, pgSchema: schema, sqlitePath: ':memory:' });
    db = handle.db;
  });
  afterAll(async () => {
    await handle?.close();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  /** Two transactions that each lock one row, then want the other's: the server aborts one of them. */
  async function deadlock(): Promise<unknown> {
    let bothHoldOne!: () => void;
    const held = new Promise<void>((resolve) => (bothHoldOne = resolve));
    let holding = 0;
    const transfer = (first: number, second: number) =>
      db.transaction().execute(async (trx) => {
        await sql`update accounts set cash = cash + 1 where id = ${first}`.execute(trx);
        if (++holding === 2) bothHoldOne();
        await held;
        await sql`update accounts set cash = cash + 1 where id = ${second}`.execute(trx);
      });
    const outcomes = await Promise.allSettled([transfer(1, 2), transfer(2, 1)]);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    return refused[0]!.reason;
  }

  it('a deadlock (40P01) is a 503 busy with Retry-After: 1', async () => {
    const error = await deadlock();
    expect((error as { code?: string }).code).toBe('40P01');
    expect(databaseFault(error)).toMatchObject({ status: 503, code: 'busy', retryAfterSeconds: 1 });
  });

  it('a serialization failure (40001) is a 503 busy with Retry-After: 1', async () => {
    let bothRead!: () => void;
    const read = new Promise<void>((resolve) => (bothRead = resolve));
    let reading = 0;
    const raise = (id: number) =>
      db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          await sql`select sum(cash) from accounts`.execute(trx);
          if (++reading === 2) bothRead();
          await read;
          await sql`update accounts set cash = cash + 1 where id = ${id}`.execute(trx);
        });
    const outcomes = await Promise.allSettled([raise(1), raise(2)]);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0]!.reason as { code?: string }).code).toBe('40001');
    expect(databaseFault(refused[0]!.reason)).toMatchObject({ status: 503, code: 'busy', retryAfterSeconds: 1 });
  });
});
