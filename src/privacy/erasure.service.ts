import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { Conflict } from '../platform/errors.js';
import type { AuthDeps } from '../auth/auth-context.js';
import { verifyStepUp } from '../auth/login.service.js';
import { auditSessionsRevoked, type AuthContext } from '../auth/sessions.service.js';
import { lockUser } from '../auth/users.repo.js';
import type { AuthenticationResponseJSON } from '../auth/webauthn.js';
import { cancelRestingOrdersOf } from '../trading/order-book.service.js';
import { auditActorKey, hashActor } from './actor-hash.js';
import {
  deleteErasedUser,
  listAuditContextsNaming,
  listUsersErasedBefore,
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
 * order canceled, `user.erase` audited. The caller clears the cookie. The purge follows 30 days later.
 */
export async function eraseMyAccount(
  deps: AuthDeps,
  auth: AuthContext,
  credential: AuthenticationResponseJSON,
): Promise<{ deleted_at: string; purge_after: string }> {
  await verifyStepUp(deps, auth.userId, credential);
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
    return { deleted_at: deletedAt, purge_after: purgeAfter };
  });
}

/**
 * Data rights' share of housekeeping (hourly, idempotent): accounts erased 30 days ago are purged, each in its
 * own transaction: their audit rows keep the keyed hash of the id instead of the id (as actor, as target, in
 * the context), incidents they opened likewise, and deleting the user removes every other row of theirs by
 * cascade (bundles included). Export bundles past their 7 days are deleted, their records 30 days later.
 */
export async function purgeErasedAccounts(db: Db, now: Date): Promise<Record<string, number>> {
  const clock = { now: () => now };
  const due = await listUsersErasedBefore(db, cutoff(now, PRIVACY_RETENTION.erasureCooling));
  let purged = 0;
  for (const user of due) {
    purged += await db.transaction().execute(async (trx) => {
      const actorHash = hashActor(await auditActorKey(trx, clock), user.id);
      await pseudonymiseAuditActor(trx, user.id, actorHash);
      await pseudonymiseAuditTarget(trx, user.id, actorHash);
      for (const row of await listAuditContextsNaming(trx, [user.id, user.email])) {
        await setAuditContext(trx, row.id, row.context.split(user.id).join(actorHash).split(user.email).join('[erased]'));
      }
      await pseudonymiseIncidentOpener(trx, user.id, actorHash);
      return deleteErasedUser(trx, user.id);
    });
  }
  return {
    erased_users: purged,
    data_export_bundles: await clearExpiredBundles(db, now.toISOString()),
    data_exports: await deleteOldExports(db, cutoff(now, PRIVACY_RETENTION.expiredExportRecords)),
  };
}
