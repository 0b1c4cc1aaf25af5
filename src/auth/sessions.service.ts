import { appendAudit } from '../platform/audit/audit.js';
import { isoAfter, isoNow, type Clock } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import { unauthenticated } from '../platform/errors.js';
import { newToken, sha256Hex } from '../platform/ids.js';
import type { AuthDeps, ClientInfo } from './auth-context.js';
import { LIFETIMES } from './lifetimes.js';
import { isLocalOperator } from './operator.js';
import { findSessionWithUser, insertSession, revokeSession, rollSession } from './sessions.repo.js';

/** The signed-in caller, as hooks attach it to the request. */
export interface AuthContext {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly role: 'user' | 'admin';
  /** The account's WebAuthn user handle (base64url), as its passkeys hold it. */
  readonly userHandle: string;
  /** SHA-256 of the cookie; null for the local operator of AUTH_V1=off. */
  readonly sessionId: string | null;
  readonly credentialId: string | null;
  readonly expiresAt: string | null;
  readonly lastVerifiedAt: string | null;
}

/**
 * Opens a 12-hour session for a user who just proved a passkey, in the caller's transaction. Returns
 * the cookie value: 256 random bits that exist only in the browser; the database keeps their SHA-256.
 */
export async function issueSession(
  db: DbOrTx,
  deps: Pick<AuthDeps, 'clock'>,
  input: { userId: string; credentialId: string; client: ClientInfo; ceremony: string },
): Promise<{ token: string; expiresAt: string }> {
  const token = newToken();
  const id = sha256Hex(token);
  const now = isoNow(deps.clock);
  const expiresAt = isoAfter(deps.clock, LIFETIMES.session);
  await insertSession(db, {
    id,
    user_id: input.userId,
    credential_id: input.credentialId,
    issued_at: now,
    expires_at: expiresAt,
    revoked_at: null,
    user_agent: input.client.userAgent,
    ip_prefix: input.client.ipPrefix,
    last_verified_at: now,
  });
  await appendAudit(db, deps.clock, {
    actorUserId: input.userId,
    action: 'session.issue',
    targetKind: 'session',
    targetId: id,
    context: { credential_id: input.credentialId, via: input.ceremony, ip_prefix: input.client.ipPrefix },
  });
  return { token, expiresAt };
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The open session a cookie names, or null: unknown, revoked, expired, or its user erased. */
export async function resolveSession(deps: AuthDeps, cookie: string | undefined): Promise<AuthContext | null> {
  if (!cookie || !TOKEN_SHAPE.test(cookie)) return null;
  const sessionId = sha256Hex(cookie);
  const row = await findSessionWithUser(deps.db, sessionId);
  // A session whose passkey was removed is revoked in the same transaction; the null check is a second lock on that door.
  if (!row || row.revoked_at !== null || row.credential_id === null || row.expires_at <= isoNow(deps.clock) || row.deleted_at !== null) return null;
  // The AUTH_V1=off operator has no session outside `off`, even one left over from before migration 0006.
  if (isLocalOperator(row)) return null;
  return {
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    userHandle: row.webauthn_user_id,
    sessionId,
    credentialId: row.credential_id,
    expiresAt: row.expires_at,
    lastVerifiedAt: row.last_verified_at,
  };
}

/** Whether refreshing needs a new user-verified assertion (24 h after the last one). */
export function isStepUpDue(deps: Pick<AuthDeps, 'clock'>, lastVerifiedAt: string | null): boolean {
  if (lastVerifiedAt === null) return false;
  return deps.clock.now().getTime() - new Date(lastVerifiedAt).getTime() >= LIFETIMES.stepUp;
}

/** Rolls a session 12 hours forward; `verifiedAt` records a step-up done with it. */
export async function rollSessionForward(deps: AuthDeps, auth: AuthContext, verifiedAt?: string): Promise<{ expires_at: string }> {
  if (auth.sessionId === null) throw unauthenticated();
  const expiresAt = isoAfter(deps.clock, LIFETIMES.session);
  const sessionId = auth.sessionId;
  await deps.db.transaction().execute(async (trx) => {
    await rollSession(trx, sessionId, expiresAt, verifiedAt);
    await appendAudit(trx, deps.clock, {
      actorUserId: auth.userId,
      action: 'session.refresh',
      targetKind: 'session',
      targetId: sessionId,
      context: { stepped_up: verifiedAt !== undefined },
    });
  });
  return { expires_at: expiresAt };
}

/** Revokes the session a cookie names, if it is open. Idempotent. */
export async function logout(deps: AuthDeps, cookie: string | undefined): Promise<void> {
  const auth = await resolveSession(deps, cookie);
  if (!auth?.sessionId) return;
  const sessionId = auth.sessionId;
  await deps.db.transaction().execute(async (trx) => {
    if (!(await revokeSession(trx, sessionId, isoNow(deps.clock)))) return;
    await appendAudit(trx, deps.clock, {
      actorUserId: auth.userId,
      action: 'session.revoke',
      targetKind: 'session',
      targetId: sessionId,
      context: { reason: 'logout' },
    });
  });
}

/** Audits `session.revoke` for each session ended as a side effect (a passkey removed, a recovery). */
export async function auditSessionsRevoked(
  trx: DbOrTx,
  clock: Clock,
  actorUserId: string,
  sessionIds: readonly string[],
  context: Record<string, unknown>,
): Promise<void> {
  for (const sessionId of sessionIds) {
    await appendAudit(trx, clock, { actorUserId, action: 'session.revoke', targetKind: 'session', targetId: sessionId, context });
  }
}
