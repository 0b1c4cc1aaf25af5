import { appendAudit } from '../platform/audit/audit.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { NotFound } from '../platform/errors.js';
import { findUserByEmail, setRole } from '../auth/users.repo.js';

/**
 * Gives (`admin`) or takes back (`user`) the admin role, by email: the operator's bootstrap, run on the
 * server with database access, audited `admin.grant` / `admin.revoke` with the system (null) as actor.
 * There is no HTTP path to this. Returns whether the role changed.
 */
export async function setAdminRole(db: Db, clock: Clock, rawEmail: string, admin: boolean): Promise<{ changed: boolean; userId: string }> {
  const email = rawEmail.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user || user.deleted_at !== null) throw new NotFound('unknown_email', `No account has the address ${email}.`);
    const role = admin ? 'admin' : 'user';
    if (user.role === role) return { changed: false, userId: user.id };
    await setRole(trx, user.id, role);
    await appendAudit(trx, clock, {
      actorUserId: null,
      action: admin ? 'admin.grant' : 'admin.revoke',
      targetKind: 'user',
      targetId: user.id,
      context: { via: 'cli' },
    });
    return { changed: true, userId: user.id };
  });
}
