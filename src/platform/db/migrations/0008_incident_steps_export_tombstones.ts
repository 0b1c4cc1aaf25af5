import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The breach runbook's later steps, and exports that stay "expired" after their record is purged (issue 29).
 *
 * - `breach_incident_steps`: what happened to an incident after the mailing, one row per step (`authority_notified`,
 *   `note`, `closed`), each with the admin's note, when it happened (`at`) and when and by whom it was recorded
 *   (`recorded_by` turns null when that admin's account is purged; the audit row `breach.step` keeps their hash).
 * - `breach_incidents.closed_at`: set by the `closed` step; the retention period of a closed incident runs from it.
 * - `export_tombstones`: the id of an export whose record was purged, its owner and when its link expired, so its
 *   link answers 410 to the owner instead of 404. It goes with the account at the erasure purge.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('breach_incident_steps')
    .addColumn('id', t.autoIncrement, (c) => t.autoIncrementPrimaryKey(c))
    .addColumn('incident_id', t.uuid, (c) => c.notNull().references('breach_incidents.id').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('recorded_at', t.timestamp, (c) => c.notNull())
    .addColumn('recorded_by', t.uuid, (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('breach_incident_steps_incident_idx').on('breach_incident_steps').columns(['incident_id', 'id']).execute();
  await db.schema.alterTable('breach_incidents').addColumn('closed_at', t.timestamp).execute();
  await db.schema
    .createTable('export_tombstones')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expired_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('export_tombstones_user_idx').on('export_tombstones').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_tombstones').execute();
  await db.schema.alterTable('breach_incidents').dropColumn('closed_at').execute();
  await db.schema.dropTable('breach_incident_steps').execute();
}
