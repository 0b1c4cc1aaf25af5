import { appendAudit } from '../platform/audit/audit.js';
import { isoNow, SECOND, type Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { enqueueJob, type JobHandler } from '../platform/jobs/jobs.js';
import { queueMail } from '../platform/mail/outbox.js';
import { breachNoticeMail } from './breach-mail.js';
import { claimRecipient, findIncident, mailProgress, nextUnqueued, setIncidentStatus, setRecipientOutbox, type Affected } from './breach.repo.js';
import { BREACH_SETTLE_JOB } from './breach.service.js';

/** People queued per transaction: a crash loses at most one uncommitted batch, which the retry queues again. */
const BATCH = 50;
/** How soon `breach.settle` looks again while mails are still going out. */
export const SETTLE_INTERVAL_MS = 10 * SECOND;
/** A day of looking; after that a mail is stuck (its own job dead) and the runbook says to resume the incident. */
const SETTLE_ROUNDS = 8640;

interface BreachJobDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly publicOrigin: string;
}

/**
 * The fan-out. Each batch, in one transaction: claim (incident, user) in `breach_recipients` (its primary key lets
 * only one run ever claim a person), queue that person's mail in the outbox (its own idempotent send-mail job), and
 * note the outbox id. A worker killed mid-run rolls back its open batch; the retry (lease expiry) and any resume find
 * the committed claims and skip those people. Ends by queuing the settle job.
 */
export function breachNotifyJob(deps: BreachJobDeps): JobHandler {
  return async (job) => {
    const { incidentId } = job.payload as { incidentId: string };
    const incident = await findIncident(deps.db, incidentId);
    if (!incident || incident.affected === null || incident.status !== 'notifying') return;
    const scope = { incidentId, affected: JSON.parse(incident.affected) as Affected, createdBy: incident.created_at };
    const mail = breachNoticeMail({ summary: incident.summary, severity: incident.severity, detectedAt: incident.detected_at, origin: deps.publicOrigin });
    for (;;) {
      if (job.signal.aborted) throw new Error('worker stopping; the retry continues where this left off');
      const queued = await deps.db.transaction().execute(async (trx) => {
        const people = await nextUnqueued(trx, scope, BATCH);
        const now = isoNow(deps.clock);
        for (const person of people) {
          if (!(await claimRecipient(trx, incidentId, person.id, now))) continue;
          const outboxId = await queueMail(trx, deps.clock, { to: person.email, userId: person.id, ...mail });
          await setRecipientOutbox(trx, incidentId, person.id, outboxId);
        }
        return people.length;
      });
      if (queued < BATCH) break;
    }
    await enqueueJob(deps.db, deps.clock, BREACH_SETTLE_JOB, { incidentId });
  };
}

/**
 * `notifying` → `notified` (audited `breach.notified`) once every queued mail is sent; until then it queues itself
 * again a little later. Idempotent: an incident already notified is left alone.
 */
export function breachSettleJob(deps: Omit<BreachJobDeps, 'publicOrigin'>): JobHandler {
  return async (job) => {
    const { incidentId, round = 0 } = job.payload as { incidentId: string; round?: number };
    const incident = await findIncident(deps.db, incidentId);
    if (!incident || incident.status !== 'notifying') return;
    const progress = (await mailProgress(deps.db, [incidentId])).get(incidentId) ?? { queued: 0, mailed: 0 };
    await deps.db.transaction().execute(async (trx) => {
      if (progress.mailed < progress.queued) {
        if (round >= SETTLE_ROUNDS) return;
        await enqueueJob(trx, deps.clock, BREACH_SETTLE_JOB, { incidentId, round: round + 1 }, { runAt: new Date(deps.clock.now().getTime() + SETTLE_INTERVAL_MS) });
        return;
      }
      const now = isoNow(deps.clock);
      await setIncidentStatus(trx, incidentId, 'notified', now);
      await appendAudit(trx, deps.clock, { actorUserId: null, action: 'breach.notified', targetKind: 'incident', targetId: incidentId, context: { mailed: progress.mailed } });
    });
  };
}
