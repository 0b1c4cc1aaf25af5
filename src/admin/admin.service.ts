import { appendAudit } from '../platform/audit/audit.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { NotFound } from '../platform/errors.js';
import { findUserByEmail, setRole } from '../auth/users.repo.js';
import type { AuthContext } from '../auth/sessions.service.js';
import { listUsers, searchAudit } from './admin.repo.js';
import { ADMIN_DEFAULT_LIMIT, type AdminUser, type AuditEntry, type AuditQuery, type UsersQuery } from './admin.schema.js';

export interface AdminDeps {
  readonly db: Db;
  readonly clock: Clock;
}

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

function pageOf(query: { limit?: number | undefined; offset?: number | undefined }) {
  return { limit: query.limit ?? ADMIN_DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

/** The accounts, DESIGN's fields only. The read is audited `admin.users_read` (with the query) before it answers. */
export async function listAccounts(deps: AdminDeps, admin: AuthContext, query: UsersQuery): Promise<{ users: AdminUser[]; total: number }> {
  const page = pageOf(query);
  await appendAudit(deps.db, deps.clock, { actorUserId: admin.userId, action: 'admin.users_read', context: { query: { ...query, ...page } } });
  const { rows, total } = await listUsers(deps.db, query.q, page);
  const users = rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at,
    email_verified: row.email_verified_at !== null,
    deleted: row.deleted_at !== null,
    passkeys: Number(row.passkeys ?? 0),
    last_sign_in_at: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
  }));
  return { users, total };
}

/**
 * Searches the audit log. The read itself is written first (`admin.audit_read`, with the query), and committed
 * before the search runs: a read is always on record, and shows in the next read (in this one too, when it matches).
 * Actor ids are shown as stored: for a purged account, the keyed hash that replaced its id (`actor_hash`).
 */
export async function readAudit(deps: AdminDeps, admin: AuthContext, query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
  const page = pageOf(query);
  await appendAudit(deps.db, deps.clock, { actorUserId: admin.userId, action: 'admin.audit_read', context: { query: { ...query, ...page } } });
  const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
  const { rows, total } = await searchAudit(
    deps.db,
    {
      ...(query.action !== undefined && { action: query.action }),
      ...(query.actor_user_id !== undefined && { actorUserId: query.actor_user_id }),
      ...(query.target_kind !== undefined && { targetKind: query.target_kind }),
      ...(query.target_id !== undefined && { targetId: query.target_id }),
      ...(query.from !== undefined && { from: instant(query.from)! }),
      ...(query.to !== undefined && { to: instant(query.to)! }),
    },
    page,
  );
  const entries = rows.map((row) => ({
    id: Number(row.id),
    at: row.at,
    actor_user_id: row.actor_user_id ?? row.actor_hash,
    action: row.action,
    target_kind: row.target_kind,
    target_id: row.target_id,
    context: row.context === null ? null : (JSON.parse(row.context) as Record<string, unknown>),
  }));
  return { entries, total };
}
