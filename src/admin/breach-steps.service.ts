import type { Selectable } from 'kysely';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import type { BreachIncidentStepsTable, IncidentStep } from '../platform/db/schema.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import { cutoff } from '../platform/retention/purge.js';
import type { Db } from '../platform/db/database.js';
import type { AuthContext } from '../auth/sessions.service.js';
import type { IncidentStepView } from './admin.schema.js';
import { BREACH_RETENTION } from './breach-retention.js';
import { closeIncident, deleteIncidentsClosedBefore, findIncident, hasIncidentStep, insertIncidentStep } from './breach.repo.js';
import type { BreachDeps } from './breach.service.js';

export interface StepInput {
  step: IncidentStep;
  note: string;
  /** When it happened; default now. */
  at?: string | undefined;
}

export function stepView(row: Selectable<BreachIncidentStepsTable>): IncidentStepView {
  return { step: row.step, note: row.note, at: row.at, recorded_at: row.recorded_at, recorded_by: row.recorded_by };
}

/**
 * The runbook after the mailing: records that the supervisory authority was told (once), a note (any time, also
 * on a closed incident), or the close, in one transaction with its `breach.step` audit row (the note's text stays
 * out of the audit context: it may name people). An incident still mailing cannot be closed (409
 * `incident_notifying`); a closed one takes notes only (409 `incident_closed`).
 */
export async function recordIncidentStep(deps: BreachDeps, admin: AuthContext, incidentId: string, input: StepInput): Promise<IncidentStepView> {
  const now = isoNow(deps.clock);
  const at = input.at === undefined ? now : new Date(input.at).toISOString();
  if (at > now) throw new BadRequest('validation_failed', 'at is in the future.', [{ field: 'body.at', message: 'must not be in the future' }]);
  return deps.db.transaction().execute(async (trx) => {
    const incident = await findIncident(trx, incidentId);
    if (!incident) throw new NotFound('not_found', 'No such incident.');
    if (incident.status === 'closed' && input.step !== 'note') throw new Conflict('incident_closed', 'This incident is closed; you can still add a note.');
    if (input.step === 'authority_notified' && (await hasIncidentStep(trx, incident.id, 'authority_notified'))) {
      throw new Conflict('step_already_recorded', 'The authority’s notice is already recorded; add a note for a follow-up.');
    }
    if (input.step === 'closed' && !(await closeIncident(trx, incident.id, at))) {
      throw new Conflict('incident_notifying', 'Mails of this incident are still going out: close it once it is notified (or resume it).');
    }
    const row = { incident_id: incident.id, step: input.step, note: input.note, at, recorded_at: now, recorded_by: admin.userId };
    await insertIncidentStep(trx, row);
    await appendAudit(trx, deps.clock, { actorUserId: admin.userId, action: 'breach.step', targetKind: 'incident', targetId: incident.id, context: { step: input.step, at } });
    return stepView({ id: 0, ...row });
  });
}

/** The admin's share of housekeeping: incidents closed longer ago than their retention period go, with their steps and recipients. */
export async function purgeClosedIncidents(db: Db, now: Date): Promise<Record<string, number>> {
  return { breach_incidents: await deleteIncidentsClosedBefore(db, cutoff(now, BREACH_RETENTION.closedIncidents)) };
}
