import { appendAudit } from '../platform/audit/audit.js';
import { HOUR, isoNow, type Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { enqueueJob } from '../platform/jobs/jobs.js';
import type { AuthContext } from '../auth/sessions.service.js';
import {
  countAffected,
  findIncident,
  findUnclosedIncidentsLike,
  insertIncident,
  listIncidents,
  listIncidentSteps,
  mailProgress,
  setIncidentStatus,
  unknownUserIds,
  type Affected,
} from './breach.repo.js';
import type { Incident } from './admin.schema.js';
import { stepView } from './breach-steps.service.js';

/** The runbook's fan-out job: queues one mail per affected person not yet queued, then starts `BREACH_SETTLE_JOB`. */
export const BREACH_NOTIFY_JOB = 'breach.notify';
/** Marks the incident `notified` once every queued mail went out; looks again later until then. */
export const BREACH_SETTLE_JOB = 'breach.settle';
/** GDPR art. 33: the supervisory authority within 72 hours of becoming aware. */
export const AUTHORITY_DEADLINE_MS = 72 * HOUR;

export interface BreachDeps {
  readonly db: Db;
  readonly clock: Clock;
}

export type NotifyInput =
  | { summary: string; severity: 'low' | 'medium' | 'high'; detected_at?: string | undefined; affected: 'all' | string[]; notify_users?: boolean | undefined }
  | { incident_id: string };

export interface NotifyAccepted {
  incident_id: string;
  authority_deadline_at: string;
  status: 'open' | 'notifying' | 'notified' | 'closed';
  merged?: true;
}

/** `"all"`, or the ids once each in a stable order, so two lists of the same people compare equal. */
function normalisedAffected(affected: 'all' | readonly string[]): Affected {
  return affected === 'all' ? 'all' : [...new Set(affected)].sort();
}

const sameAffected = (a: Affected, b: Affected) => JSON.stringify(normalisedAffected(a)) === JSON.stringify(normalisedAffected(b));

/**
 * Starts the breach runbook (the caller has verified a fresh step-up). A new incident is recorded with its
 * 72-hour authority deadline, status `notifying`, audited `breach.notify`, and the fan-out job queued, all in one
 * transaction; with `notify_users: false` (severity `low` only) it is recorded `open` and nobody is mailed.
 * With `incident_id`, the incident's runbook runs again (audited `breach.resume`): the fan-out mails only whom it
 * has not queued yet, so a finished incident mails nobody. A new notification identical (summary, severity,
 * affected) to an incident not closed is merged into it: answered as a resume of that incident, `merged: true`.
 */
export async function notifyBreach(deps: BreachDeps, admin: AuthContext, input: NotifyInput): Promise<NotifyAccepted> {
  if ('incident_id' in input) return resumeIncident(deps, admin, input.incident_id);
  const notifyUsers = input.notify_users ?? true;
  if (!notifyUsers && input.severity !== 'low') {
    throw new BadRequest('validation_failed', 'Only a low-severity incident may be recorded without mailing the people it concerns.', [
      { field: 'body.notify_users', message: 'may be false only with severity low' },
    ]);
  }
  const now = isoNow(deps.clock);
  const detectedAt = input.detected_at === undefined ? now : new Date(input.detected_at).toISOString();
  if (detectedAt > now) throw new BadRequest('validation_failed', 'detected_at is in the future.', [{ field: 'body.detected_at', message: 'must not be in the future' }]);
  const affected = normalisedAffected(input.affected);
  if (affected !== 'all') {
    const unknown = await unknownUserIds(deps.db, affected);
    if (unknown.length > 0) {
      throw new BadRequest('unknown_users', 'Some affected ids name no account.', unknown.slice(0, 20).map((id) => ({ field: 'body.affected', message: `no account ${id}` })));
    }
  }
  const duplicate = (await findUnclosedIncidentsLike(deps.db, input.summary, input.severity)).find((i) => i.affected !== null && sameAffected(JSON.parse(i.affected) as Affected, affected));
  if (duplicate) return resumeIncident(deps, admin, duplicate.id, { merged: true, mail: notifyUsers });
  const id = newId();
  const deadline = new Date(new Date(detectedAt).getTime() + AUTHORITY_DEADLINE_MS).toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const toMail = await countAffected(trx, { affected, createdBy: now });
    await insertIncident(trx, {
      id,
      opened_by: admin.userId,
      summary: input.summary,
      severity: input.severity,
      status: notifyUsers ? 'notifying' : 'open',
      detected_at: detectedAt,
      affected_users: toMail,
      authority_deadline_at: deadline,
      notified_at: null,
      created_at: now,
      affected: JSON.stringify(affected),
    });
    await appendAudit(trx, deps.clock, {
      actorUserId: admin.userId,
      action: 'breach.notify',
      targetKind: 'incident',
      targetId: id,
      context: { severity: input.severity, detected_at: detectedAt, authority_deadline_at: deadline, affected: affected === 'all' ? 'all' : affected.length, to_mail: toMail, notify_users: notifyUsers },
    });
    if (notifyUsers) await enqueueJob(trx, deps.clock, BREACH_NOTIFY_JOB, { incidentId: id });
  });
  return { incident_id: id, authority_deadline_at: deadline, status: notifyUsers ? 'notifying' : 'open' };
}

/** Runs an incident's mailing again (`mail: false`, a quiet duplicate, only records the request); 409 once closed. */
async function resumeIncident(deps: BreachDeps, admin: AuthContext, incidentId: string, how: { merged?: true; mail?: boolean } = {}): Promise<NotifyAccepted> {
  return deps.db.transaction().execute(async (trx) => {
    const incident = await findIncident(trx, incidentId);
    if (!incident || incident.affected === null) throw new NotFound('not_found', 'No such incident.');
    if (incident.status === 'closed') throw new Conflict('incident_closed', 'This incident is closed: record a new one to mail people again.');
    const context = { status: incident.status, ...(how.merged && { merged: true }) };
    await appendAudit(trx, deps.clock, { actorUserId: admin.userId, action: 'breach.resume', targetKind: 'incident', targetId: incident.id, context });
    let status = incident.status;
    if (incident.status !== 'notified' && how.mail !== false) {
      await setIncidentStatus(trx, incident.id, 'notifying', null);
      await enqueueJob(trx, deps.clock, BREACH_NOTIFY_JOB, { incidentId: incident.id });
      status = 'notifying';
    }
    return { incident_id: incident.id, authority_deadline_at: incident.authority_deadline_at, status, ...(how.merged && { merged: true as const }) };
  });
}

/**
 * Incidents, newest first, with progress (queued and mailed of `to_mail`), the authority deadline and the steps
 * recorded after the mailing. The read is audited `admin.breach_read` first, like every admin read.
 */
export async function listBreachIncidents(deps: BreachDeps, admin: AuthContext, page: { limit: number; offset: number }): Promise<{ incidents: Incident[]; total: number }> {
  await appendAudit(deps.db, deps.clock, { actorUserId: admin.userId, action: 'admin.breach_read', context: { query: page } });
  const { rows, total } = await listIncidents(deps.db, page);
  const ids = rows.map((r) => r.id);
  const progress = await mailProgress(deps.db, ids);
  const steps = await listIncidentSteps(deps.db, ids);
  const incidents = rows.map((row) => {
    const counts = progress.get(row.id) ?? { queued: 0, mailed: 0 };
    return {
      id: row.id,
      summary: row.summary,
      severity: row.severity,
      status: row.status,
      detected_at: row.detected_at,
      authority_deadline_at: row.authority_deadline_at,
      created_at: row.created_at,
      notified_at: row.notified_at,
      closed_at: row.closed_at,
      opened_by: row.opened_by,
      affected: row.affected === null ? null : (JSON.parse(row.affected) as 'all' | string[]),
      to_mail: Number(row.affected_users ?? 0),
      ...counts,
      steps: steps.filter((step) => step.incident_id === row.id).map(stepView),
    };
  });
  return { incidents, total };
}
