import type { Insertable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { BreachIncidentStepsTable, BreachIncidentsTable } from '../platform/db/schema.js';
import { OPERATOR_EMAIL } from '../auth/operator.js';

export type Affected = 'all' | readonly string[];

export interface Scope {
  readonly incidentId: string;
  readonly affected: Affected;
  /** Accounts created after the incident was recorded are not part of it. */
  readonly createdBy: string;
}

/**
 * Accounts with a verified address that the incident concerns (never the AUTH_V1=off operator). Erased accounts
 * not yet purged are included: their data is still held, so the breach concerns them; the address is the last one
 * they verified (an erased account cannot change it).
 */
function affectedUsers(db: DbOrTx, scope: Omit<Scope, 'incidentId'>) {
  let query = db
    .selectFrom('users')
    .where('users.email_verified_at', 'is not', null)
    .where('users.email', '!=', OPERATOR_EMAIL)
    .where('users.created_at', '<=', scope.createdBy);
  if (scope.affected !== 'all') query = query.where('users.id', 'in', [...scope.affected]);
  return query;
}

export async function countAffected(db: DbOrTx, scope: Omit<Scope, 'incidentId'>): Promise<number> {
  const row = await affectedUsers(db, scope).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of `ids` name no account at all. */
export async function unknownUserIds(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  const known = new Set((await db.selectFrom('users').select('id').where('id', 'in', [...ids]).execute()).map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/** The next affected accounts whose mail is not queued yet, by id. */
export async function nextUnqueued(db: DbOrTx, scope: Scope, limit: number): Promise<{ id: string; email: string }[]> {
  return affectedUsers(db, scope)
    .select(['users.id', 'users.email'])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('breach_recipients')
            .select('breach_recipients.user_id')
            .whereRef('breach_recipients.user_id', '=', 'users.id')
            .where('breach_recipients.incident_id', '=', scope.incidentId),
        ),
      ),
    )
    .orderBy('users.id')
    .limit(limit)
    .execute();
}

/** Claims (incident, user): true only for the one caller that inserted the row. */
export async function claimRecipient(db: DbOrTx, incidentId: string, userId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('breach_recipients')
    .values({ incident_id: incidentId, user_id: userId, outbox_id: null, queued_at: at })
    .onConflict((oc) => oc.columns(['incident_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function setRecipientOutbox(db: DbOrTx, incidentId: string, userId: string, outboxId: string): Promise<void> {
  await db.updateTable('breach_recipients').set({ outbox_id: outboxId }).where('incident_id', '=', incidentId).where('user_id', '=', userId).execute();
}

export async function insertIncident(db: DbOrTx, row: Insertable<BreachIncidentsTable>): Promise<void> {
  await db.insertInto('breach_incidents').values(row).execute();
}

export async function findIncident(db: DbOrTx, id: string) {
  return db.selectFrom('breach_incidents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Incidents not closed yet with this summary and severity: the candidates a new notification may duplicate. */
export async function findUnclosedIncidentsLike(db: DbOrTx, summary: string, severity: string) {
  return db.selectFrom('breach_incidents').selectAll().where('summary', '=', summary).where('severity', '=', severity as 'low').where('status', '!=', 'closed').orderBy('created_at').execute();
}

/** Closes the incident unless it is closed or still mailing; false when it was. */
export async function closeIncident(db: DbOrTx, id: string, closedAt: string): Promise<boolean> {
  const result = await db.updateTable('breach_incidents').set({ status: 'closed', closed_at: closedAt }).where('id', '=', id).where('status', 'in', ['open', 'notified']).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertIncidentStep(db: DbOrTx, row: Insertable<BreachIncidentStepsTable>): Promise<void> {
  await db.insertInto('breach_incident_steps').values(row).execute();
}

export async function hasIncidentStep(db: DbOrTx, incidentId: string, step: BreachIncidentStepsTable['step']): Promise<boolean> {
  return (await db.selectFrom('breach_incident_steps').select('id').where('incident_id', '=', incidentId).where('step', '=', step).executeTakeFirst()) !== undefined;
}

/** The steps of these incidents, oldest first. */
export async function listIncidentSteps(db: DbOrTx, incidentIds: readonly string[]) {
  if (incidentIds.length === 0) return [];
  return db.selectFrom('breach_incident_steps').selectAll().where('incident_id', 'in', [...incidentIds]).orderBy('id').execute();
}

/** Deletes incidents closed before `cutoff`; their recipients and steps go with them. */
export async function deleteIncidentsClosedBefore(db: DbOrTx, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('breach_incidents').where('status', '=', 'closed').where('closed_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function setIncidentStatus(db: DbOrTx, id: string, status: 'notifying' | 'notified', notifiedAt: string | null): Promise<void> {
  await db.updateTable('breach_incidents').set({ status, notified_at: notifiedAt }).where('id', '=', id).execute();
}

/** Per incident: mails queued, and mails handed to the mail server. */
export async function mailProgress(db: DbOrTx, incidentIds: readonly string[]): Promise<Map<string, { queued: number; mailed: number }>> {
  const progress = new Map<string, { queued: number; mailed: number }>();
  if (incidentIds.length === 0) return progress;
  const rows = await db
    .selectFrom('breach_recipients')
    .leftJoin('mail_outbox', 'mail_outbox.id', 'breach_recipients.outbox_id')
    .select((eb) => [
      'breach_recipients.incident_id',
      eb.fn.countAll<number | string>().as('queued'),
      eb.fn.count<number | string>('mail_outbox.sent_at').as('mailed'),
    ])
    .where('breach_recipients.incident_id', 'in', [...incidentIds])
    .groupBy('breach_recipients.incident_id')
    .execute();
  for (const row of rows) progress.set(String(row.incident_id), { queued: Number(row.queued), mailed: Number(row.mailed) });
  return progress;
}

export async function listIncidents(db: DbOrTx, page: { limit: number; offset: number }) {
  const rows = await db.selectFrom('breach_incidents').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute();
  const total = await db.selectFrom('breach_incidents').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}
