import { HOUR, isoNow } from '../platform/clock.js';
import { Forbidden } from '../platform/errors.js';
import type { AuthDeps, ClientInfo } from './auth-context.js';
import { verifyUserAssertion } from './assertions.service.js';
import { verificationMail } from './auth-mails.js';
import { issueChallenge } from './challenges.service.js';
import { listCredentials } from './credentials.repo.js';
import { sendEmailLink } from './email-links.service.js';
import { issueSession, isStepUpDue, rollSessionForward, type AuthContext } from './sessions.service.js';
import { setSessionVerifiedAt } from './sessions.repo.js';
import { requestOptions, type AuthenticationResponseJSON, type RequestOptions } from './webauthn.js';

/** Usernameless sign-in: no account is named, so `allowCredentials` is empty. */
export async function loginOptions(deps: AuthDeps): Promise<RequestOptions> {
  const challenge = await issueChallenge(deps.db, deps.clock, 'authentication');
  return requestOptions(deps.config, { challenge, allow: [] });
}

/**
 * Signs in with a discoverable passkey and opens a session. An address not yet verified is refused
 * with 403 `email_unverified` (only after the passkey verified, so it tells a stranger nothing), and a
 * fresh link is mailed, at most 3 an hour per account.
 */
export async function login(
  deps: AuthDeps,
  response: AuthenticationResponseJSON,
  client: ClientInfo,
): Promise<{ user_id: string; role: 'user' | 'admin'; token: string; expiresAt: string }> {
  // The session is issued in the transaction that records the passkey's use: one commit for both.
  const { user, result: session } = await verifyUserAssertion(deps, response, 'authentication', undefined, (trx, { user, credential }) =>
    user.email_verified_at === null
      ? Promise.resolve(null)
      : issueSession(trx, deps, { userId: user.id, credentialId: credential.id, client, ceremony: 'login' }),
  );
  if (session === null) {
    const resend = await deps.rateLimiter.hit(`auth.verify-resend:${user.id}`, { limit: 3, windowMs: HOUR });
    if (resend.allowed) {
      await deps.db.transaction().execute((trx) =>
        sendEmailLink(trx, deps.clock, {
          userId: user.id,
          email: user.email,
          purpose: 'initial',
          publicOrigin: deps.config.publicOrigin,
          mail: verificationMail,
        }),
      );
    }
    throw new Forbidden('email_unverified', 'Confirm your email address first: we have sent you a new link.');
  }
  return { user_id: user.id, role: user.role, ...session };
}

/**
 * Step-up, part 1: request options for the user's own passkeys, the challenge bound to the user.
 * Reusable by any feature that needs a fresh user-verified assertion (erasure).
 */
export async function stepUpOptions(deps: AuthDeps, userId: string): Promise<RequestOptions> {
  const challenge = await issueChallenge(deps.db, deps.clock, 'step_up', { userId });
  return requestOptions(deps.config, { challenge, allow: await listCredentials(deps.db, userId) });
}

/**
 * Step-up, part 2: verifies a user-verified assertion by one of `userId`'s passkeys against a step-up
 * challenge issued to that user. Throws (400/401) unless it holds; a caller that needs "fresh" simply
 * calls this in the same request flow. Records nothing on the session: see `stepUpSession`.
 */
export async function verifyStepUp(
  deps: AuthDeps,
  userId: string,
  response: AuthenticationResponseJSON,
): Promise<{ credentialId: string; verifiedAt: string }> {
  const { credential } = await verifyUserAssertion(deps, response, 'step_up', userId);
  return { credentialId: credential.id, verifiedAt: isoNow(deps.clock) };
}

/** Step-up of the current session: resets the 24-hour clock of `session/refresh`. */
export async function stepUpSession(deps: AuthDeps, auth: AuthContext, response: AuthenticationResponseJSON): Promise<{ verified_at: string }> {
  const { verifiedAt } = await verifyStepUp(deps, auth.userId, response);
  if (auth.sessionId !== null) await setSessionVerifiedAt(deps.db, auth.sessionId, verifiedAt);
  return { verified_at: verifiedAt };
}

export type RefreshOutcome =
  | { readonly kind: 'rolled'; readonly expires_at: string }
  | { readonly kind: 'step_up_required'; readonly options: RequestOptions };

/**
 * Rolls the session 12 hours. Once 24 hours have passed since the last user-verified assertion, an
 * assertion must come with the request; without one, the answer carries options to make it.
 */
export async function refreshSession(
  deps: AuthDeps,
  auth: AuthContext,
  response: AuthenticationResponseJSON | undefined,
): Promise<RefreshOutcome> {
  if (!isStepUpDue(deps, auth.lastVerifiedAt)) {
    return { kind: 'rolled', ...(await rollSessionForward(deps, auth)) };
  }
  if (!response) return { kind: 'step_up_required', options: await stepUpOptions(deps, auth.userId) };
  const { verifiedAt } = await verifyStepUp(deps, auth.userId, response);
  return { kind: 'rolled', ...(await rollSessionForward(deps, auth, verifiedAt)) };
}
