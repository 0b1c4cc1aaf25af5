import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { openDatabase } from '../../../src/platform/db/database.js';
import { buildTestApp } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/dialects.js';
import { HttpClient } from '../../helpers/http-client.js';

/**
 * Another process holding the SQLite file's write lock past our busy timeout: the request is a 503 `busy` with
 * `Retry-After`, never a 500, and the same request succeeds once the lock is free. The other process is a plain
 * connection here; the busy timeout is cut to 100 ms so the test does not wait the default 5 s.
 */
describe('a busy SQLite database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: App;
  let otherProcess: SQLite.Database;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildTestApp(openDatabase({ ...database.connectionOptions, sqliteBusyTimeoutMs: 100 }));
    otherProcess = new SQLite(database.connectionOptions.sqlitePath, { timeout: 0 });
  });
  afterAll(async () => {
    otherProcess?.close();
    await app?.close();
    await database?.drop();
  });

  it('answers 503 busy with Retry-After while another writer holds the file, then serves', async () => {
    const client = new HttpClient(app);
    otherProcess.exec('BEGIN IMMEDIATE');
    const refused = await client.post('register/options', { email: 'ann@example.com', display_name: 'Ann' });
    otherProcess.exec('ROLLBACK');
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({ error: 'busy', message: expect.stringContaining('try again') });
    expect(refused.headers['retry-after']).toBe('1');

    expect((await client.post('register/options', { email: 'ann@example.com', display_name: 'Ann' })).statusCode).toBe(200);
  });

  it('begins every transaction as a writer: another process cannot write in the middle of one that has only read', async () => {
    const attempts: string[] = [];
    await database.handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) from users`.execute(trx);
      try {
        otherProcess.exec('BEGIN IMMEDIATE');
        otherProcess.exec('ROLLBACK');
        attempts.push('other process wrote');
      } catch (error) {
        attempts.push((error as { code: string }).code);
      }
      await sql`insert into rate_limit_counters (key, window_started_at, count) values ('k', '2026-01-01T00:00:00.000Z', 1)`.execute(trx);
    });
    expect(attempts).toEqual(['SQLITE_BUSY']);
  });
});
