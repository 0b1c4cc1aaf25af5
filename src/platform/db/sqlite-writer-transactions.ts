import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

/**
 * SQLite where every transaction begins as a writer (`BEGIN IMMEDIATE`), taking the file's write lock at the
 * start, waiting for it up to the busy timeout. A deferred `BEGIN` takes a read snapshot first; if another
 * process writes before our first write, ours can never upgrade and fails at once with SQLITE_BUSY_SNAPSHOT,
 * whatever the busy timeout. Our transactions are short and nearly all write, so nothing is lost by starting
 * them as writers. This is the one place transactions on SQLite begin.
 */
export class WriterTransactionsSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new WriterTransactionsSqliteDriver(this.#config);
  }
}

class WriterTransactionsSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
