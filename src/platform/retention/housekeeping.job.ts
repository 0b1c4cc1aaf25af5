import type { Db } from '../db/database.js';
import { HOUR, type Clock } from '../clock.js';
import type { JobHandler } from '../jobs/jobs.js';
import type { RecurringJob } from '../jobs/recurring.js';
import { RETENTION } from './retention-periods.js';
import type { FastifyBaseLogger } from 'fastify';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';
export const HOUSEKEEPING_SCHEDULE: RecurringJob = { kind: HOUSEKEEPING_JOB, everyMs: HOUR };

/** Deletes what has outlived its retention period. Idempotent: a second run finds nothing more. */
export function housekeepingJob(deps: { db: Db; clock: Clock; logger: FastifyBaseLogger }): JobHandler {
  return async () => {
    const counts = await purgeExpiredRecords(deps.db, deps.clock);
    deps.logger.info({ deleted: counts }, 'housekeeping done');
  };
}

export async function purgeExpiredRecords(db: Db, clock: Clock): Promise<Record<string, number>> {
  const now = clock.now().getTime();
  const before = (ms: number) => new Date(now - ms).toISOString();
  const nowIso = new Date(now).toISOString();
  const deleted = async (query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }) =>
    Number((await query.executeTakeFirst()).numDeletedRows);

  return {
    webauthn_challenges: await deleted(db.deleteFrom('webauthn_challenges').where('expires_at', '<', nowIso)),
    email_verifications: await deleted(
      db.deleteFrom('email_verifications').where('expires_at', '<', before(RETENTION.spentEmailVerifications)),
    ),
    sessions: await deleted(
      db
        .deleteFrom('sessions')
        .where((eb) =>
          eb.or([
            eb('expires_at', '<', before(RETENTION.endedSessions)),
            eb('revoked_at', '<', before(RETENTION.endedSessions)),
          ]),
        ),
    ),
    mail_outbox: await deleted(db.deleteFrom('mail_outbox').where('created_at', '<', before(RETENTION.outboxMail))),
    jobs: await deleted(
      db
        .deleteFrom('jobs')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'done'), eb('finished_at', '<', before(RETENTION.doneJobs))]),
            eb.and([eb('state', '=', 'dead'), eb('finished_at', '<', before(RETENTION.deadJobs))]),
          ]),
        ),
    ),
    rate_limit_counters: await deleted(
      db.deleteFrom('rate_limit_counters').where('window_started_at', '<', before(RETENTION.rateLimitCounters)),
    ),
    audit_entries: await deleted(db.deleteFrom('audit_entries').where('at', '<', before(RETENTION.auditEntries))),
  };
}
