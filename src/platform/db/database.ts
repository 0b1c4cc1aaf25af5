import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, sql, type SqliteDatabase, type Transaction } from 'kysely';
import { CurrentSchemaPostgresDialect } from './postgres-introspector.js';
import type { Config } from '../config.js';
import { migrations } from './migrations/index.js';
import { SqliteValuesPlugin } from './sqlite-values-plugin.js';
import { cachingStatements } from './statement-cache.js';
import { namingStatements } from './pg-named-statements.js';
import { timestampToIso, timestamptzToIso } from './pg-timestamps.js';
import { WriterTransactionsSqliteDialect } from './sqlite-writer-transactions.js';
import { BOOLEAN_COLUMNS, type Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** A database handle or an open transaction: repos accept either. */
export type DbOrTx = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: DialectName;
  /** PostgreSQL schema holding our tables (`public` unless set); undefined on SQLite. */
  readonly schema?: string;
  /**
   * SQLite only: runs `work` inside `BEGIN IMMEDIATE`, holding the file's write lock so that another
   * process waits rather than interleaves (Kysely's migration lock is a no-op on SQLite).
   */
  readonly exclusively?: <T>(work: () => Promise<T>) => Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`, or null for SQLite. */
  readonly url: string | null;
  /** SQLite file, or `:memory:`. */
  readonly sqlitePath: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  readonly pgSchema?: string;
  readonly pgPoolSize?: number;
  /** SQLite: how long to wait for another process's write lock before SQLITE_BUSY (a 503 `busy`); 5 s unless set. */
  readonly sqliteBusyTimeoutMs?: number;
}

const asText = (value: string): string => value;

const PG_TYPES = {
  INT8: 20,
  DATE: 1082,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
} as const;

/** The database the configuration names. */
export function databaseOptions(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'sqlitePath'>): DatabaseOptions {
  return { url: config.databaseUrl, sqlitePath: config.sqlitePath, pgSchema: config.databaseSchema };
}

/**
 * Opens the database. Both dialects return the same JavaScript values: timestamps as ISO strings,
 * dates as `YYYY-MM-DD`, 64-bit integers as numbers, booleans as booleans.
 */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) return openPostgres(options.url, options.pgSchema, options.pgPoolSize ?? 10);
  return openSqlite(options.sqlitePath, options.sqliteBusyTimeoutMs ?? 5_000);
}

function openSqlite(file: string, busyTimeoutMs: number): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Several processes (server, worker, CLI) may share the file; wait for a lock rather than fail. The wait
  // blocks this process (better-sqlite3 is synchronous), so it is kept to seconds; past it the request is a 503 `busy`.
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  const db = new Kysely<Database>({
    dialect: new WriterTransactionsSqliteDialect({ database: rollbackAfterAutoRollback(sqlite, cachingStatements(sqlite)) }),
    plugins: [new SqliteValuesPlugin(BOOLEAN_COLUMNS)],
  });
  const exclusively = async <T>(work: () => Promise<T>): Promise<T> => {
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = await work();
      sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  };
  return { db, dialect: 'sqlite', exclusively, close: () => db.destroy() };
}

/**
 * Time limits on PostgreSQL, so that a database that is down, restarting or stuck fails a request within
 * seconds (a 503 `database_unavailable`, `database-faults.ts`) rather than holding it: waiting for a pooled
 * connection or opening one, and one statement on the server.
 */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
export const PG_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * On some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM…) SQLite rolls the transaction back itself; Kysely's
 * ROLLBACK then fails with "no transaction is active" and that error would replace the real one (a full disk
 * would be a 500 rather than a 503 `storage_full`). A ROLLBACK with no transaction open is therefore a no-op.
 */
function rollbackAfterAutoRollback(sqlite: SQLite.Database, database: SqliteDatabase): SqliteDatabase {
  const nothingToRollBack = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) };
  return {
    close: () => database.close(),
    prepare: (query: string) => (!sqlite.inTransaction && /^\s*rollback\s*$/i.test(query) ? nothingToRollBack : database.prepare(query)),
  } as SqliteDatabase;
}

function openPostgres(url: string, schema: string | undefined, max: number): DatabaseHandle {
  const serverSettings = [`-c statement_timeout=${PG_STATEMENT_TIMEOUT_MS}`, ...(schema ? [`-c search_path=${schema}`] : [])];
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    options: serverSettings.join(' '),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        // pg asks for the parsers on every result's RowDescription: the same functions each time, none built per call.
        if (oid === PG_TYPES.INT8) return Number;
        if (oid === PG_TYPES.DATE) return asText;
        if (oid === PG_TYPES.TIMESTAMPTZ) return timestamptzToIso;
        if (oid === PG_TYPES.TIMESTAMP) return timestampToIso;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A connection cut by the server (restart, failover) emits 'error': on the pool while it is idle there, on
  // the client while it is checked out between two queries of a transaction. Without a listener either would
  // crash the process. The query in flight fails on its own (a 503); the pool drops the dead client.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  namingStatements(pool);
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, dialect: 'postgres', schema: schema ?? 'public', close: () => db.destroy() };
}

/**
 * Brings the schema up to date; safe to run on every start and from several processes at once. Each
 * run is one transaction (SQLite and PostgreSQL both have transactional DDL), under a lock: Kysely's
 * lock row on PostgreSQL, the file's write lock on SQLite.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const run = async () => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return results;
  };
  const results = await (handle.exclusively ? handle.exclusively(run) : run());
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Column names of every table of the live schema, read from the database itself. */
export async function listLiveColumns(handle: DatabaseHandle): Promise<{ table: string; column: string }[]> {
  const tables = (await handle.db.introspection.getTables()).filter(
    (table) => handle.schema === undefined || table.schema === handle.schema,
  );
  return tables.flatMap((table) => table.columns.map((column) => ({ table: table.name, column: column.name })));
}
