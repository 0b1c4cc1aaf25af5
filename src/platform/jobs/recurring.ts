import { createHash } from 'node:crypto';
import type { DbOrTx } from '../db/database.js';
import { isoNow, type Clock } from '../clock.js';
import { DEFAULT_MAX_ATTEMPTS } from './jobs.js';

export interface RecurringJob {
  readonly kind: string;
  readonly everyMs: number;
}

/**
 * Makes sure the job of the current period exists. Its id is derived from the kind and the period, so
 * however many workers call this, each period gets exactly one job.
 */
export async function enqueueRecurringJob(db: DbOrTx, clock: Clock, recurring: RecurringJob): Promise<void> {
  const period = Math.floor(clock.now().getTime() / recurring.everyMs);
  const now = isoNow(clock);
  await db
    .insertInto('jobs')
    .values({
      id: periodJobId(recurring.kind, period),
      kind: recurring.kind,
      payload: JSON.stringify({ period }),
      state: 'queued',
      attempts: 0,
      max_attempts: DEFAULT_MAX_ATTEMPTS,
      run_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

/** A uuid (v4 layout) that is a pure function of kind and period. */
export function periodJobId(kind: string, period: number): string {
  const hex = createHash('sha256').update(`${kind}:${period}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
