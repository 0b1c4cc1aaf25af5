import type { Db } from '../db/database.js';

/**
 * One owner's share of housekeeping: deletes its rows that have outlived their retention period at
 * `now`, and returns how many went, per table, in a stable order. Idempotent. The platform purges its
 * own tables; each feature hands the housekeeping job a purge for its tables.
 */
export type RecordPurge = (db: Db, now: Date) => Promise<Record<string, number>>;

/** The ISO timestamp `period` milliseconds before `now`: rows older than this have outlived the period. */
export function cutoff(now: Date, period: number): string {
  return new Date(now.getTime() - period).toISOString();
}

/** Runs a delete query and returns how many rows it deleted. */
export async function deletedCount(query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }): Promise<number> {
  return Number((await query.executeTakeFirst()).numDeletedRows);
}
