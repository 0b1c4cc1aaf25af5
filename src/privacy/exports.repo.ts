import type { Selectable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { DataExportsTable } from '../platform/db/schema.js';

export type ExportRow = Omit<Selectable<DataExportsTable>, 'bundle'>;

const LISTED = ['id', 'user_id', 'status', 'file_path', 'byte_size', 'requested_at', 'ready_at', 'expires_at'] as const;

export async function insertExport(db: DbOrTx, row: { id: string; user_id: string; requested_at: string }): Promise<void> {
  await db.insertInto('data_exports').values({ ...row, status: 'queued' }).execute();
}

/** The user's exports, newest first, without their bundles. */
export async function listExports(db: DbOrTx, userId: string): Promise<ExportRow[]> {
  return db.selectFrom('data_exports').select(LISTED).where('user_id', '=', userId).orderBy('requested_at', 'desc').orderBy('id').execute();
}

/** An export still being built for the user, if any. */
export async function findQueuedExport(db: DbOrTx, userId: string): Promise<ExportRow | undefined> {
  return db.selectFrom('data_exports').select(LISTED).where('user_id', '=', userId).where('status', '=', 'queued').executeTakeFirst();
}

export async function findExport(db: DbOrTx, id: string): Promise<ExportRow | undefined> {
  return db.selectFrom('data_exports').select(LISTED).where('id', '=', id).executeTakeFirst();
}

/** The bundle of one of the user's exports (null once cleared). */
export async function findExportBundle(db: DbOrTx, userId: string, id: string): Promise<(ExportRow & { bundle: Uint8Array | null }) | undefined> {
  return db.selectFrom('data_exports').select([...LISTED, 'bundle']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** Stores the bundle and marks the export ready, only if it is still queued: false when another run got there first. */
export async function markExportReady(
  db: DbOrTx,
  id: string,
  ready: { bundle: Uint8Array; readyAt: string; expiresAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable('data_exports')
    .set({ status: 'ready', bundle: ready.bundle, byte_size: ready.bundle.byteLength, ready_at: ready.readyAt, expires_at: ready.expiresAt })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markExportFailed(db: DbOrTx, id: string): Promise<void> {
  await db.updateTable('data_exports').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'queued').execute();
}

/** Deletes the bundles whose link expired before `now` (the rows stay, bundle-less). */
export async function clearExpiredBundles(db: DbOrTx, now: string): Promise<number> {
  const result = await db
    .updateTable('data_exports')
    .set({ bundle: null })
    .where('expires_at', '<', now)
    .where('bundle', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes export records whose link expired before `cutoff`, and failed ones requested before it. An expired one
 * leaves a tombstone first (its id, owner and expiry), so its link still answers 410: written before the delete and
 * idempotent, a crash between the two leaves nothing the next run does not finish.
 */
export async function deleteOldExports(db: DbOrTx, cutoff: string): Promise<number> {
  await db
    .insertInto('export_tombstones')
    .columns(['id', 'user_id', 'expired_at'])
    .expression((eb) => eb.selectFrom('data_exports').select(['id', 'user_id', 'expires_at']).where('expires_at', 'is not', null).where('expires_at', '<', cutoff))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const result = await db
    .deleteFrom('data_exports')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb.and([eb('status', '=', 'failed'), eb('requested_at', '<', cutoff)])]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether `id` was one of the user's exports whose record is purged. */
export async function hasExportTombstone(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('export_tombstones').select('id').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Deletes tombstones of links that expired before `cutoff`. */
export async function deleteExportTombstones(db: DbOrTx, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('export_tombstones').where('expired_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
