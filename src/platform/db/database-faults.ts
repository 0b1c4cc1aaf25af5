import { ServiceUnavailable } from '../errors.js';
import { databaseBusy, isDatabaseBusy } from './busy.js';

/**
 * Database failures that are the service's condition, not the request's fault: the database cannot be reached
 * (down, restarting, refusing connections, a query past its time limit), its disk is full, or (SQLite) other
 * writers hold it past the busy timeout. Each becomes a 503
 * with `Retry-After` rather than a 500; the error handler asks here for any error that is not an `AppError`.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Node's socket errors for a peer that is gone or unreachable. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception) is matched by prefix; these are the rest. 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery), 53300
 * too_many_connections, 57014 query_canceled (the pool's `statement_timeout`).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** node-postgres reports a dropped or timed-out connection with these messages and no code. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** SQLITE_FULL (the disk or `max_page_count`), PostgreSQL 53100 disk_full. */
const STORAGE_FULL_CODES = new Set(['SQLITE_FULL', '53100']);

export function databaseFault(error: unknown): ServiceUnavailable | undefined {
  for (const cause of causes(error)) {
    if (isDatabaseBusy(cause)) return databaseBusy();
    const code = typeof cause.code === 'string' ? cause.code : '';
    if (STORAGE_FULL_CODES.has(code)) {
      return new ServiceUnavailable('storage_full', 'The database has no space left to store this; nothing was saved. Try again later.', DATABASE_RETRY_AFTER_SECONDS);
    }
    if (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || PG_CONNECTION_MESSAGES.test(cause.message)) {
      return new ServiceUnavailable('database_unavailable', 'The database is not answering right now; nothing was saved. Try again shortly.', DATABASE_RETRY_AFTER_SECONDS);
    }
  }
  return undefined;
}

/** The error and what it wraps (`cause`, an AggregateError's `errors`), a few levels deep. */
function causes(error: unknown, depth = 0): { code?: unknown; message: string }[] {
  if (!(error instanceof Error) || depth > 3) return [];
  const nested = [
    ...(error.cause === undefined ? [] : causes(error.cause, depth + 1)),
    ...(error instanceof AggregateError ? error.errors.flatMap((inner) => causes(inner, depth + 1)) : []),
  ];
  return [error as Error & { code?: unknown }, ...nested];
}
