import { describe, expect, it } from 'vitest';
import { databaseFault } from './database-faults.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('databaseFault', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['the server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['the server starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['a statement past its timeout', withCode('canceling statement due to statement timeout', '57014')],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly')],
    ['no pooled connection in time', new Error('timeout exceeded when trying to connect')],
    ['a refusal wrapped in an AggregateError', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'all failed')],
    ['a refusal as the cause', new Error('query failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') })],
  ])('%s is a 503 database_unavailable with Retry-After', (_what, error) => {
    expect(databaseFault(error)).toMatchObject({ status: 503, code: 'database_unavailable', retryAfterSeconds: 5 });
  });

  it.each([
    ['SQLite', withCode('database or disk is full', 'SQLITE_FULL')],
    ['PostgreSQL', withCode('could not extend file: No space left on device', '53100')],
  ])('a full disk under %s is a 503 storage_full', (_dialect, error) => {
    expect(databaseFault(error)).toMatchObject({ status: 503, code: 'storage_full', retryAfterSeconds: 5 });
  });

  it('a PostgreSQL lock it could not take (55P03, NOWAIT or lock_timeout) is a 503 busy', () => {
    // Deadlocks and serialization failures are produced for real in test/platform/db/postgres-contention.test.ts.
    expect(databaseFault(withCode('could not obtain lock on row in relation "jobs"', '55P03'))).toMatchObject({ status: 503, code: 'busy', retryAfterSeconds: 1 });
  });

  it('leaves every other error alone (a bug stays a 500)', () => {
    expect(databaseFault(withCode('duplicate key value violates unique constraint', '23505'))).toBeUndefined();
    expect(databaseFault(withCode('UNIQUE constraint failed: users.email', 'SQLITE_CONSTRAINT_UNIQUE'))).toBeUndefined();
    expect(databaseFault(new TypeError('cannot read properties of undefined'))).toBeUndefined();
    expect(databaseFault('not an error')).toBeUndefined();
  });
});
