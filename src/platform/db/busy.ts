import { ServiceUnavailable } from '../errors.js';

/**
 * SQLite's "another connection holds the lock" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_TIMEOUT,
 * SQLITE_LOCKED, …), as better-sqlite3 reports it in `code`, and PostgreSQL's deadlocks and serialization failures:
 * contention that a retry resolves, not a fault.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code) || POSTGRES_CONTENTION.has(code));
}

/**
 * PostgreSQL's contention SQLSTATEs: 40001 serialization_failure, 40P01 deadlock_detected (the server aborted this
 * transaction so another could go on), 55P03 lock_not_available. The transaction was rolled back whole, so a retry
 * is safe; the client is told to make it.
 */
const POSTGRES_CONTENTION = new Set(['40001', '40P01', '55P03']);

/** The refusal for a busy database: 503 `busy`, retry in a second. */
export function databaseBusy(): ServiceUnavailable {
  return new ServiceUnavailable('busy', 'The database is busy with other writes; try again in a moment.', 1);
}

/**
 * Runs `transaction` again when the database rolled it back for contention (`isDatabaseBusy`: nothing of it was
 * kept), up to `attempts` runs in all; any other error, or the last contention, is thrown. For a transaction whose
 * request cannot simply be repeated by the client, such as one that follows a spent single-use challenge.
 */
export async function retryWhenBusy<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let run = 1; ; run += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (run >= attempts || !isDatabaseBusy(error)) throw error;
    }
  }
}
