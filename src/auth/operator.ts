import { isoNow } from '../platform/clock.js';
import { newId, newToken } from '../platform/ids.js';
import type { AuthDeps } from './auth-context.js';
import type { AuthContext } from './sessions.service.js';
import { findUserByEmail, insertUserIfAbsent } from './users.repo.js';

/**
 * The one account that session-scoped features act for when AUTH_V1=off (loopback only). `.invalid` is reserved
 * (RFC 2606): no relay delivers to it. (Before migration 0006 it was `operator@localhost`, which a relay may deliver.)
 */
export const OPERATOR_EMAIL = 'operator@tradelab.invalid';

/**
 * Whether an account is the AUTH_V1=off operator. Outside `off` it is unreachable: no sign-in, step-up, session,
 * recovery or mail (each of those paths checks this), so no switch back to `beta` or `ga` turns it into an account.
 */
export function isLocalOperator(user: { email: string }): boolean {
  return user.email === OPERATOR_EMAIL;
}

/**
 * Finds, or creates on first use, the local operator's account: unverified, role `user`, no passkey. It never
 * signs in; under `off` the account routes (admin included) answer 404 anyway.
 */
export async function localOperator(deps: AuthDeps): Promise<AuthContext> {
  let user = await findUserByEmail(deps.db, OPERATOR_EMAIL);
  if (!user) {
    const now = isoNow(deps.clock);
    await insertUserIfAbsent(deps.db, {
      id: newId(),
      email: OPERATOR_EMAIL,
      email_verified_at: null,
      display_name: 'Local operator',
      role: 'user',
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
