import type { Config } from '../platform/config.js';
import { databaseOptions, migrateToLatest, openDatabase, type Db, type DialectName } from '../platform/db/database.js';

/**
 * Opens the database `config` names, brings its schema up to date, runs `work` on it (with the names of
 * the migrations just applied) and always closes the database again, whether `work` finished or threw.
 */
export async function withMigratedDatabase<T>(config: Config, work: (db: Db, applied: string[], dialect: DialectName) => Promise<T>): Promise<T> {
  const database = openDatabase(databaseOptions(config));
  try {
    const applied = await migrateToLatest(database);
    return await work(database.db, applied, database.dialect);
  } finally {
    await database.close();
  }
}
