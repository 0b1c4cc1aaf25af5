import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  migrateToLatest,
  openDatabase,
  type DatabaseHandle,
  type DatabaseOptions,
  type DialectName,
} from '../../src/platform/db/database.js';

/**
 * Every database test runs once per dialect: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 * In CI a missing TEST_DATABASE_URL is an error, never a silent skip; elsewhere the run says once that the
 * PostgreSQL half is skipped (test/helpers/postgres-notice.global.ts) and each skipped suite says so in its title.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

if (!POSTGRES_URL && process.env.CI) {
  throw new Error('TEST_DATABASE_URL is not set: in CI every database test must also run on PostgreSQL.');
}

export const DIALECTS: readonly DialectName[] = POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  readonly dialect: DialectName;
  /** Migrated, empty, private to this test file. */
  readonly handle: DatabaseHandle;
  /** Opens another handle (its own connection or pool) on the same database, as a second process would. */
  openAnother(): DatabaseHandle;
  /** What `openDatabase` needs to reach the same database from a child process (plain data: pass it as JSON). */
  readonly connectionOptions: DatabaseOptions;
}

/** Creates an empty database of one dialect: a temporary SQLite file, or a fresh PostgreSQL schema. */
export async function createTestDatabase(dialect: DialectName, options: { migrate?: boolean } = {}): Promise<
  TestDatabase & { drop(): Promise<void> }
> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const others: DatabaseHandle[] = [];
  let openOne: () => DatabaseHandle;
  let connectionOptions: DatabaseOptions;
  let cleanUp: () => Promise<void>;

  if (dialect === 'postgres') {
    if (!POSTGRES_URL) throw new Error('PostgreSQL tests need TEST_DATABASE_URL');
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${name}`);
    await admin.end();
    const pgOptions = { url: POSTGRES_URL, sqlitePath: '', pgSchema: name, pgPoolSize: 5 };
    connectionOptions = pgOptions;
    openOne = () => openDatabase(pgOptions);
    cleanUp = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists ${name} cascade`);
      await client.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-test-'));
    const file = path.join(dir, `${name}.sqlite`);
    const sqliteOptions = { url: null, sqlitePath: file };
    connectionOptions = sqliteOptions;
    openOne = () => openDatabase(sqliteOptions);
    cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
  }

  const handle = openOne();
  if (options.migrate !== false) await migrateToLatest(handle);
  return {
    dialect,
    handle,
    connectionOptions,
    openAnother() {
      const another = openOne();
      others.push(another);
      return another;
    },
    async drop() {
      for (const other of others) await other.close();
      await handle.close();
      await cleanUp();
    },
  };
}

/**
 * `describe` once per dialect, each with its own migrated database. The callback gets a getter,
 * because the database only exists once `beforeAll` has run.
 */
export function describeEachDialect(title: string, body: (db: () => TestDatabase, dialect: DialectName) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (!DIALECTS.includes(dialect)) {
      describe.skip(`${title} [${dialect}: SKIPPED, TEST_DATABASE_URL not set]`, () => body(() => unreachable(), dialect));
      continue;
    }
    describe(`${title} [${dialect}]`, () => {
      let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(dialect);
      });
      afterAll(async () => {
        await database?.drop();
      });
      body(() => database ?? unreachable(), dialect);
    });
  }
}

function unreachable(): never {
  throw new Error('test database used before it was created');
}
