import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct SQL texts keep their prepared statement (the app has a few hundred queries; `in (…)` lists vary). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * The better-sqlite3 handle as Kysely's SQLite driver sees it, with prepared statements reused by SQL text.
 * Kysely prepares every query again (parse + plan in SQLite); the issue 17 profile put that at about a tenth
 * of a session-checked request. A statement still iterating (a streamed select) is busy: then a fresh one is
 * prepared for that call. Least recently used texts leave the cache first.
 */
export function cachingStatements(sqlite: SqliteHandle, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Re-inserted: Map order is then least recently used first.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}
