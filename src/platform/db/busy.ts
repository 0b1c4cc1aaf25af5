import { ServiceUnavailable } from '../errors.js';

/**
 * SQLite's "another connection holds the lock" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_TIMEOUT,
 * SQLITE_LOCKED, …), as better-sqlite3 reports it in `code`: contention that a retry resolves, not a fault.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/** The refusal for a busy database: 503 `busy`, retry in a second. */
export function databaseBusy(): ServiceUnavailable {
  return new ServiceUnavailable('busy', 'The database is busy with other writes; try again in a moment.', 1);
}
