import { sql, type Selectable, type UpdateObject } from 'kysely';
import type { DbOrTx, DialectName } from '../db/database.js';
import type { Database, JobsTable } from '../db/schema.js';

export type JobRow = Selectable<JobsTable>;

export interface NewJob {
  id: string;
  kind: string;
  payload: string;
  maxAttempts: number;
  runAt: string;
  now: string;
}

export async function insertJob(db: DbOrTx, job: NewJob): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: job.id,
      kind: job.kind,
      payload: job.payload,
      state: 'queued',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_at: job.runAt,
      created_at: job.now,
      updated_at: job.now,
    })
    .execute();
}

/**
 * Takes the next due job (queued and due, or running with an expired lease) and leases it to `owner`
 * in one statement, the earliest due first and, among jobs due at the same time, the oldest first (a backlog
 * drains in the order it was queued). On PostgreSQL `FOR UPDATE SKIP LOCKED` lets many workers claim side by
 * side without waiting on or taking the same row; SQLite serialises writers, so the single UPDATE is enough.
 */
export async function claimNextJob(
  db: DbOrTx,
  dialect: DialectName,
  claim: { owner: string; now: string; leaseExpiresAt: string },
): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      lease_owner: claim.owner,
      lease_expires_at: claim.leaseExpiresAt,
      updated_at: claim.now,
    }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('state', '=', 'queued'), w('run_at', '<=', claim.now)]),
            w.and([w('state', '=', 'running'), w('lease_expires_at', '<=', claim.now)]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('created_at')
        .limit(1)
        .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll()
    .executeTakeFirst();
}

type LeasedJobChange = UpdateObject<Database, 'jobs'>;

/**
 * Applies `change` only while `owner` still holds the job's lease, so a worker that lost the lease
 * (its job retaken after expiry) changes nothing. True when the change was made.
 */
async function updateLeasedJob(db: DbOrTx, id: string, owner: string, change: LeasedJobChange): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set(change)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

const NO_LEASE = { lease_owner: null, lease_expires_at: null } as const;

export function completeJob(db: DbOrTx, id: string, owner: string, now: string): Promise<boolean> {
  return updateLeasedJob(db, id, owner, { ...NO_LEASE, state: 'done', finished_at: now, updated_at: now, last_error: null });
}

export function rescheduleJob(
  db: DbOrTx,
  id: string,
  owner: string,
  change: { now: string; runAt: string; error: string },
): Promise<boolean> {
  return updateLeasedJob(db, id, owner, {
    ...NO_LEASE,
    state: 'queued',
    run_at: change.runAt,
    last_error: change.error,
    updated_at: change.now,
  });
}

export function buryJob(db: DbOrTx, id: string, owner: string, change: { now: string; error: string }): Promise<boolean> {
  return updateLeasedJob(db, id, owner, {
    ...NO_LEASE,
    state: 'dead',
    last_error: change.error,
    finished_at: change.now,
    updated_at: change.now,
  });
}

/** Hands a job back untouched (shutdown): the attempt does not count. */
export function releaseJob(db: DbOrTx, id: string, owner: string, now: string): Promise<boolean> {
  return updateLeasedJob(db, id, owner, {
    ...NO_LEASE,
    state: 'queued',
    attempts: sql<number>`attempts - 1`,
    run_at: now,
    updated_at: now,
  });
}

export function extendLease(db: DbOrTx, id: string, owner: string, leaseExpiresAt: string): Promise<boolean> {
  return updateLeasedJob(db, id, owner, { lease_expires_at: leaseExpiresAt });
}

/**
 * Makes the waiting retries of one kind whose last error starts with `errorPrefix` due now: for a dependency
 * that answers again, such as the mail relay, so the backlog goes now rather than at each one's next retry.
 */
export async function makeRetriesDue(db: DbOrTx, kind: string, errorPrefix: string, now: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ run_at: now, updated_at: now })
    .where('kind', '=', kind)
    .where('state', '=', 'queued')
    .where('attempts', '>', 0)
    .where('run_at', '>', now)
    .where(sql<string>`substr(last_error, 1, ${errorPrefix.length})`, '=', errorPrefix)
    .execute();
}

export async function findJob(db: DbOrTx, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
