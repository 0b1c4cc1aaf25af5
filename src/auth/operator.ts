import { isoNow } from '../platform/clock.js';
import { newId, newToken } from '../platform/ids.js';
import type { AuthDeps } from './auth-context.js';
import type { AuthContext } from './sessions.service.js';
import { findUserByEmail, insertUserIfAbsent } from './users.repo.js';

/** The one account that session-scoped features act for when AUTH_V1=off (loopback only). */
export const OPERATOR_EMAIL = 'operator@localhost';

/** Finds, or creates on first use, the local operator's account. It has no passkey and never signs in. */
export async function localOperator(deps: AuthDeps): Promise<AuthContext> {
  let user = await findUserByEmail(deps.db, OPERATOR_EMAIL);
  if (!user) {
    const now = isoNow(deps.clock);
    await insertUserIfAbsent(deps.db, {
      id: newId(),
      email: OPERATOR_EMAIL,
      email_verified_at: now,
      display_name: 'Local operator',
      role: 'admin',
      created_at: now,
      webauthn_user_id: newToken(),
    });
    user = (await findUserByEmail(deps.db, OPERATOR_EMAIL))!;
  }
  return {
    userId: user.id,
    email: user.email,
    displayName: user.display_name,
    role: user.role,
    userHandle: user.webauthn_user_id,
    sessionId: null,
    credentialId: null,
    expiresAt: null,
    lastVerifiedAt: null,
  };
}
