import { appendAudit } from '../platform/audit/audit.js';
import { isoNow, type Clock } from '../platform/clock.js';
import { retryWhenBusy } from '../platform/db/busy.js';
import type { Db, DbOrTx } from '../platform/db/database.js';
import { Conflict } from '../platform/errors.js';
import type { AuthDeps } from '../auth/auth-context.js';
import { verifyStepUp } from '../auth/login.service.js';
import { auditSessionsRevoked, type AuthContext } from '../auth/sessions.service.js';
import { findUserById, lockUser } from '../auth/users.repo.js';
import type { AuthenticationResponseJSON } from '../auth/webauthn.js';
import { queueMail } from '../platform/mail/outbox.js';
import { cancelRestingOrdersOf } from '../trading/order-book.service.js';
import { erasureNoticeMail } from './privacy-mails.js';
import { auditActorKey, hashActor } from './actor-hash.js';
import {
  deleteErasedUser,
  listAuditedCredentialIds,
  listCredentialIds,
  listAuditContextsNaming,
  listUsersErasedBy,
  markUserDeleted,
  pseudonymiseAuditActor,
  pseudonymiseAuditTarget,
  pseudonymiseIncidentOpener,
  revokeAllSessions,
  setAuditContext,
} from './erasure.repo.js';
import { clearExpiredBundles, deleteOldExports } from './exports.repo.js';
import { PRIVACY_RETENTION } from './privacy-retention.js';
import { cutoff } from '../platform/retention/purge.js';

/**
 * `POST /api/gdpr/erase`: a fresh step-up (an assertion answering `POST /api/auth/step-up/options`, verified here
 * by auth's one step-up verifier), then in one transaction: `deleted_at`, every session revoked, every resting
 * order canceled, `user.erase` audited, a notice mailed to the address (so an erasure the person did not make is
 * seen while the data still exists). The caller clears the cookie. The purge follows 30 days later.
 * The step-up's challenge is spent once verified, so a transaction the database rolls back for contention is run
 * again here rather than answered 503 (which would send the person through the passkey ceremony again); trades
 * lock the user's row before the account's, as this does, so none deadlocks with it.
 */
export async function eraseMyAccount(
  deps: AuthDeps,
  auth: AuthContext,
  credential: AuthenticationResponseJSON,
): Promise<{ deleted_at: string; purge_after: string }> {
  await verifyStepUp(deps, auth.userId, credential);
  return retryWhenBusy(() => eraseInOneTransaction(deps, auth));
}

async function eraseInOneTransaction(deps: AuthDeps, auth: AuthContext): Promise<{ deleted_at: string; purge_after: string }> {
  return deps.db.transaction().execute(async (trx) => {
    await lockUser(trx, auth.userId, deps.dialect);
    const deletedAt = isoNow(deps.clock);
    if (!(await markUserDeleted(trx, auth.userId, deletedAt))) throw new Conflict('already_erased', 'This account is already erased.');
    const purgeAfter = new Date(new Date(deletedAt).getTime() + PRIVACY_RETENTION.erasureCooling).toISOString();
    const sessions = await revokeAllSessions(trx, auth.userId, deletedAt);
    const orders = await cancelRestingOrdersOf(trx, deps, auth.userId, 'erasure');
    await appendAudit(trx, deps.clock, {
      actorUserId: auth.userId,
      action: 'user.erase',
      targetKind: 'user',
      targetId: auth.userId,
      context: { purge_after: purgeAfter, revoked_sessions: sessions.length, canceled_orders: orders.length },
    });
    await auditSessionsRevoked(trx, deps.clock, auth.userId, sessions, { reason: 'erasure' });
    const user = await findUserById(trx, auth.userId);
    // userId: the notice's outbox row goes with the rest of the account at the purge.
    if (user) await queueMail(trx, deps.clock, { to: user.email, userId: user.id, ...erasureNoticeMail(deps.config.publicOrigin, deletedAt, purgeAfter) });
    return { deleted_at: deletedAt, purge_after: purgeAfter };
  });
}

/**
 * One erased account, in the caller's transaction: every identifier of the person in the audit log (account id,
 * WebAuthn user handle, passkey ids) becomes its keyed hash, as actor (`actor_user_id` null, `actor_hash` set), as
 * target and inside the context; their address in a context becomes `[erased]`; incidents they opened keep the
 * hash; then the user row goes and every other row of theirs with it (foreign keys cascade).
 */
async function purgeErasedAccount(trx: DbOrTx, clock: Clock, user: { id: string; email: string; webauthn_user_id: string }): Promise<number> {
  const key = await auditActorKey(trx, clock);
  const passkeys = new Set([...(await listCredentialIds(trx, user.id)), ...(await listAuditedCredentialIds(trx, user.id))]);
  const ids = [user.id, user.webauthn_user_id, ...passkeys];
  const hashes = new Map(ids.map((id) => [id, hashActor(key, id)]));
  const actorHash = hashes.get(user.id)!;
  await pseudonymiseAuditActor(trx, user.id, actorHash);
  for (const [id, hash] of hashes) await pseudonymiseAuditTarget(trx, id, hash);
  for (const row of await listAuditContextsNaming(trx, [...ids, user.email])) {
    let context = row.context;
    for (const [id, hash] of hashes) context = context.split(id).join(hash);
    await setAuditContext(trx, row.id, context.split(user.email).join('[erased]'));
  }
  await pseudonymiseIncidentOpener(trx, user.id, actorHash);
  return deleteErasedUser(trx, user.id);
}

/**
 * Data rights' share of housekeeping (hourly, idempotent): accounts erased 30 days ago are purged, each in its
 * own transaction (`purgeErasedAccount`), bundles included. Export bundles past their 7 days are deleted, their records 30 days later.
 */
export async function purgeErasedAccounts(db: Db, now: Date): Promise<Record<string, number>> {
  const clock = { now: () => now };
  const due = await listUsersErasedBy(db, cutoff(now, PRIVACY_RETENTION.erasureCooling));
  let purged = 0;
  for (const user of due) purged += await db.transaction().execute((trx) => purgeErasedAccount(trx, clock, user));
  return {
    erased_users: purged,
    data_export_bundles: await clearExpiredBundles(db, now.toISOString()),
    data_exports: await deleteOldExports(db, cutoff(now, PRIVACY_RETENTION.expiredExportRecords)),
  };
}
