import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/** The address the AUTH_V1=off operator had before 0006: deliverable by a relay that serves `localhost`. */
const LEGACY_OPERATOR_EMAIL = 'operator@localhost';
/** RFC 2606 reserves `.invalid`: no mail system delivers to it. Kept equal to `OPERATOR_EMAIL` in src/auth/operator.ts. */
const OPERATOR_EMAIL = 'operator@tradelab.invalid';

/**
 * The breach runbook's ledger, and the end of the operator back door.
 *
 * - `breach_incidents.affected`: whom the incident concerns, `"all"` or a JSON array of user ids, so a resumed
 *   runbook mails the same people.
 * - `breach_recipients`: one row per (incident, user) once that user's mail is queued; the primary key is what makes
 *   the notification idempotent (a retried or resumed run never queues a second mail for the same person).
 * - The local operator of AUTH_V1=off (created as a verified admin at `operator@localhost`) becomes an unverified
 *   plain user at an undeliverable address, with no passkey, no open session and no pending link or mail: outside
 *   `off` nothing can sign it in, recover it or mail it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('breach_incidents').addColumn('affected', 'text').execute();
  await db.schema
    .createTable('breach_recipients')
    .addColumn('incident_id', t.uuid, (c) => c.notNull().references('breach_incidents.id').onDelete('cascade'))
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('outbox_id', t.uuid)
    .addColumn('queued_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('breach_recipients_pk', ['incident_id', 'user_id'])
    .execute();

  const now = new Date().toISOString();
  const operators = db.selectFrom('users').select('id').where('email', 'in', [LEGACY_OPERATOR_EMAIL, OPERATOR_EMAIL]);
  await db.deleteFrom('email_verifications').where('user_id', 'in', operators).execute();
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', 'in', operators).where('revoked_at', 'is', null).execute();
  await db.deleteFrom('passkey_credentials').where('user_id', 'in', operators).execute();
  await db.deleteFrom('mail_outbox').where('to_address', '=', LEGACY_OPERATOR_EMAIL).where('sent_at', 'is', null).execute();
  await db
    .updateTable('users')
    .set({ email: OPERATOR_EMAIL, email_verified_at: null, role: 'user' })
    .where('email', '=', LEGACY_OPERATOR_EMAIL)
    .where(sql<boolean>`not exists (select 1 from users u2 where u2.email = ${OPERATOR_EMAIL})`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('breach_recipients').ifExists().execute();
  await db.schema.alterTable('breach_incidents').dropColumn('affected').execute();
}
