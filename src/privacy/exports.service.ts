import { appendAudit } from '../platform/audit/audit.js';
import { isoAfter, isoNow } from '../platform/clock.js';
import { Conflict, Gone, NotFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { enqueueJob } from '../platform/jobs/jobs.js';
import { queueMail } from '../platform/mail/outbox.js';
import type { AuthDeps } from '../auth/auth-context.js';
import type { AuthContext } from '../auth/sessions.service.js';
import { findUserById, lockUser } from '../auth/users.repo.js';
import { buildBundle, collectBundleData } from './export-bundle.js';
import {
  deleteExportTombstones,
  findExport,
  findExportBundle,
  findQueuedExport,
  hasExportTombstone,
  insertExport,
  listExports,
  markExportFailed,
  markExportReady,
  type ExportRow,
} from './exports.repo.js';
import { exportReadyMail } from './privacy-mails.js';
import { PRIVACY_RETENTION } from './privacy-retention.js';
import type { Db } from '../platform/db/database.js';
import { cutoff } from '../platform/retention/purge.js';

export const EXPORT_JOB = 'privacy.export';
export const EXPORT_MAX_ATTEMPTS = 5;

export type PrivacyDeps = Pick<AuthDeps, 'db' | 'dialect' | 'clock' | 'config' | 'logger'>;

export interface ExportView {
  id: string;
  status: 'queued' | 'ready' | 'failed' | 'expired';
  requested_at: string;
  ready_at: string | null;
  expires_at: string | null;
  byte_size: number | null;
}

function view(row: ExportRow, now: string): ExportView {
  const expired = row.status === 'ready' && row.expires_at !== null && row.expires_at <= now;
  return {
    id: row.id,
    status: expired ? 'expired' : row.status,
    requested_at: row.requested_at,
    ready_at: row.ready_at,
    expires_at: row.expires_at,
    byte_size: row.byte_size === null ? null : Number(row.byte_size),
  };
}

/**
 * `POST /api/gdpr/export`: records the request and queues the job that builds the bundle, in one transaction.
 * 409 `export_in_progress` while another export of the user is still being built.
 */
export async function requestExport(deps: PrivacyDeps, auth: AuthContext): Promise<{ id: string; status: 'queued' }> {
  return deps.db.transaction().execute(async (trx) => {
    // Two requests of one user are serialised on their user row, so only one export is ever in progress.
    await lockUser(trx, auth.userId, deps.dialect);
    if (await findQueuedExport(trx, auth.userId)) {
      throw new Conflict('export_in_progress', 'An export of your data is already being prepared; you will get a mail when it is ready.');
    }
    const id = newId();
    await insertExport(trx, { id, user_id: auth.userId, requested_at: isoNow(deps.clock) });
    await enqueueJob(trx, deps.clock, EXPORT_JOB, { exportId: id }, { maxAttempts: EXPORT_MAX_ATTEMPTS });
    await appendAudit(trx, deps.clock, { actorUserId: auth.userId, action: 'dsr.export_requested', targetKind: 'export', targetId: id });
    return { id, status: 'queued' as const };
  });
}

export async function listMyExports(deps: PrivacyDeps, auth: AuthContext): Promise<ExportView[]> {
  const now = isoNow(deps.clock);
  return (await listExports(deps.db, auth.userId)).map((row) => view(row, now));
}

const expired = () => new Gone('export_expired', 'This export has expired (downloads last 7 days); ask for a new one.');

/**
 * The zip of one of the caller's exports: 404 for an unknown id or another user's, 409 `export_not_ready`
 * while it is being built, 410 `export_expired` once its 7 days are over, also after its record is purged (its tombstone).
 */
export async function downloadMyExport(deps: PrivacyDeps, auth: AuthContext, id: string): Promise<{ bundle: Uint8Array; readyAt: string }> {
  const row = await findExportBundle(deps.db, auth.userId, id);
  if (!row) {
    if (await hasExportTombstone(deps.db, auth.userId, id)) throw expired();
    throw new NotFound('not_found', 'There is no such export of your data.');
  }
  if (row.status === 'ready' && row.expires_at !== null && row.expires_at <= isoNow(deps.clock)) throw expired();
  if (row.status !== 'ready' || row.bundle === null || row.ready_at === null) {
    throw new Conflict('export_not_ready', row.status === 'failed' ? 'This export failed; ask for a new one.' : 'This export is still being prepared.');
  }
  return { bundle: row.bundle, readyAt: row.ready_at };
}

/**
 * The export job: builds the bundle outside any transaction, then in one transaction stores it, marks the
 * export ready (only if still queued), queues the ready mail and audits `dsr.export`. A worker killed
 * before that commit leaves nothing; a second run after it finds the export ready and does nothing.
 */
export function exportJob(deps: PrivacyDeps) {
  return async (job: { payload: unknown; attempt: number }): Promise<void> => {
    const { exportId } = job.payload as { exportId: string };
    const pending = await findExport(deps.db, exportId);
    if (!pending || pending.status !== 'queued') return;
    const user = await findUserById(deps.db, pending.user_id);
    if (!user || user.deleted_at !== null) return markExportFailed(deps.db, exportId);
    try {
      const exportedAt = isoNow(deps.clock);
      const bundle = buildBundle(await collectBundleData(deps.db, user.id), exportedAt);
      await deps.db.transaction().execute(async (trx) => {
        const expiresAt = isoAfter(deps.clock, PRIVACY_RETENTION.exportLink);
        if (!(await markExportReady(trx, exportId, { bundle, readyAt: exportedAt, expiresAt }))) return;
        await queueMail(trx, deps.clock, { to: user.email, userId: user.id, ...exportReadyMail(deps.config.publicOrigin, expiresAt) });
        await appendAudit(trx, deps.clock, {
          actorUserId: user.id,
          action: 'dsr.export',
          targetKind: 'export',
          targetId: exportId,
          context: { byte_size: bundle.byteLength, expires_at: expiresAt },
        });
      });
    } catch (error) {
      // The last attempt: the export is failed, so the user may ask again (one in progress at a time).
      if (job.attempt >= EXPORT_MAX_ATTEMPTS) await markExportFailed(deps.db, exportId);
      throw error;
    }
  };
}

/** Data rights' housekeeping of export tombstones: gone `exportTombstones` after the link expired (then the link is 404). */
export async function purgeExportTombstones(db: Db, now: Date): Promise<Record<string, number>> {
  return { export_tombstones: await deleteExportTombstones(db, cutoff(now, PRIVACY_RETENTION.exportTombstones)) };
}
