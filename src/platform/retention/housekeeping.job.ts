import type { Db } from '../db/database.js';
import { HOUR, type Clock } from '../clock.js';
import type { JobHandler } from '../jobs/jobs.js';
import type { RecurringJob } from '../jobs/recurring.js';
import { RETENTION } from './retention-periods.js';
import { cutoff, deletedCount, type RecordPurge } from './purge.js';
import type { FastifyBaseLogger } from 'fastify';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';
export const HOUSEKEEPING_SCHEDULE: RecurringJob = { kind: HOUSEKEEPING_JOB, everyMs: HOUR };

/**
 * Deletes what has outlived its retention period: the features' rows through `purges`, then the
 * platform's own. Idempotent: a second run finds nothing more.
 */
export function housekeepingJob(deps: {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  purges: readonly RecordPurge[];
}): JobHandler {
  return async () => {
    const counts = await purgeExpiredRecords(deps.db, deps.clock, deps.purges);
    deps.logger.info({ deleted: counts }, 'housekeeping done');
  };
}

/** Runs each feature's purge in turn, then the platform's; the counts come back keyed by table in that order. */
export async function purgeExpiredRecords(
  db: Db,
  clock: Clock,
  featurePurges: readonly RecordPurge[],
): Promise<Record<string, number>> {
  const now = clock.now();
  const counts: Record<string, number> = {};
  for (const purge of [...featurePurges, purgeExpiredPlatformRecords]) Object.assign(counts, await purge(db, now));
  return counts;
}

/** The platform's own tables: outbox, jobs, rate-limit windows, audit entries. */
async function purgeExpiredPlatformRecords(db: Db, now: Date): Promise<Record<string, number>> {
  const before = (period: number) => cutoff(now, period);
  return {
    mail_outbox: await deletedCount(db.deleteFrom('mail_outbox').where('created_at', '<', before(RETENTION.outboxMail))),
    jobs: await deletedCount(
      db
        .deleteFrom('jobs')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'done'), eb('finished_at', '<', before(RETENTION.doneJobs))]),
            eb.and([eb('state', '=', 'dead'), eb('finished_at', '<', before(RETENTION.deadJobs))]),
          ]),
        ),
    ),
    rate_limit_counters: await deletedCount(
      db.deleteFrom('rate_limit_counters').where('window_started_at', '<', before(RETENTION.rateLimitCounters)),
    ),
    audit_entries: await deletedCount(db.deleteFrom('audit_entries').where('at', '<', before(RETENTION.auditEntries))),
  };
}
