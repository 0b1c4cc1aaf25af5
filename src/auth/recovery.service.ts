import { appendAudit } from '../platform/audit/audit.js';
import { HOUR, isoAfter, isoNow } from '../platform/clock.js';
import { BadRequest, NotFound } from '../platform/errors.js';
import { queueMail } from '../platform/mail/outbox.js';
import type { AuthDeps, ClientInfo } from './auth-context.js';
import { passkeysResetMail, recoveryMail } from './auth-mails.js';
import { consumeChallenge, issueChallenge } from './challenges.service.js';
import { deleteUserCredentials, findCredential, listCredentials } from './credentials.repo.js';
import { consumeEmailLink } from './email-links.repo.js';
import { findUsableLink, linkUsed, sendEmailLink } from './email-links.service.js';
import { LIFETIMES } from './lifetimes.js';
import { isLocalOperator } from './operator.js';
import { normaliseEmail, registrationFailed, storeCredential } from './registration.service.js';
import { listOpenSessionIds, revokeSessions } from './sessions.repo.js';
import { auditSessionsRevoked, issueSession } from './sessions.service.js';
import { findUserByEmail, findUserById, lockUser, setTradeCooldown, type UserRow } from './users.repo.js';
import { creationOptions, verifyNewCredential, type CreationOptions, type RegistrationResponseJSON } from './webauthn.js';

export const RECOVERY_LIMITS = {
  perEmail: { limit: 3, windowMs: HOUR },
  perClientPrefix: { limit: 10, windowMs: HOUR },
} as const;

/**
 * Mails a recovery link to a verified, live account's address. The caller always answers 202: whether
 * the address exists, is verified, or is over its limit (3 an hour per address, 10 per client network)
 * is never told.
 */
export async function startRecovery(deps: AuthDeps, rawEmail: string, client: ClientInfo): Promise<void> {
  const email = normaliseEmail(rawEmail);
  const byPrefix = await deps.rateLimiter.hit(`auth.recovery-prefix:${client.ipPrefix ?? 'unknown'}`, RECOVERY_LIMITS.perClientPrefix);
  const byEmail = await deps.rateLimiter.hit(`auth.recovery-email:${email}`, RECOVERY_LIMITS.perEmail);
  if (!byPrefix.allowed || !byEmail.allowed) return;
  await deps.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email);
    // The AUTH_V1=off operator is never recoverable: recovery was the HTTP path to its (then admin) account.
    if (!user || user.email_verified_at === null || user.deleted_at !== null || isLocalOperator(user)) return;
    await sendEmailLink(trx, deps.clock, { userId: user.id, email, purpose: 'recovery', publicOrigin: deps.config.publicOrigin, mail: recoveryMail });
    await appendAudit(trx, deps.clock, {
      actorUserId: null,
      action: 'recovery.start',
      targetKind: 'user',
      targetId: user.id,
      context: { ip_prefix: client.ipPrefix },
    });
  });
}

async function recoveringUser(deps: AuthDeps, token: string): Promise<{ user: UserRow; linkId: string }> {
  const link = await findUsableLink(deps.db, deps.clock, token, ['recovery']);
  const user = await findUserById(deps.db, link.user_id);
  if (!user || user.deleted_at !== null || isLocalOperator(user)) throw new NotFound('link_invalid', 'This link is not valid. Ask for a new one.');
  return { user, linkId: link.id };
}

/** Step 1: the link is checked (not consumed) and creation options for the new passkey are returned. */
export async function recoveryOptions(deps: AuthDeps, token: string): Promise<CreationOptions> {
  const { user, linkId } = await recoveringUser(deps, token);
  const challenge = await issueChallenge(deps.db, deps.clock, 'recovery', { userId: user.id, context: { link_id: linkId } });
  return creationOptions(deps.config, {
    challenge,
    userHandle: user.webauthn_user_id,
    userName: user.email,
    displayName: user.display_name || user.email,
    exclude: [],
  });
}

/**
 * Step 2, in one transaction: consume the link, remove every prior passkey and revoke every session,
 * store the new passkey, start the 72-hour trade cooldown and cancel the resting orders (`onCredentialsReset`:
 * whoever held the account may have queued them), audit `user.credentials_reset`, queue the "passkeys were
 * reset" mail, and open a session with the new passkey.
 */
export async function completeRecovery(
  deps: AuthDeps,
  token: string,
  response: RegistrationResponseJSON,
  client: ClientInfo,
): Promise<{ user_id: string; role: 'user' | 'admin'; token: string; expiresAt: string }> {
  const clientData = response.response?.clientDataJSON;
  const { user, linkId } = await recoveringUser(deps, token);
  const ceremony = await consumeChallenge(deps.db, deps.clock, clientData, 'recovery', user.id);
  if (ceremony.context.link_id !== linkId) throw new BadRequest('challenge_invalid', 'The ceremony belongs to another link.');
  const credential = await verifyNewCredential(deps.config, response, ceremony.challenge);
  if (!credential) throw registrationFailed();

  return deps.db.transaction().execute(async (trx) => {
    // Serialised with adding a passkey or another recovery of this account, so no passkey outlives the reset.
    await lockUser(trx, user.id, deps.dialect);
    const now = isoNow(deps.clock);
    if (!(await consumeEmailLink(trx, linkId, now))) throw linkUsed();
    const existing = await findCredential(trx, credential.id);
    if (existing && existing.user_id !== user.id) throw registrationFailed('This passkey is already registered.');
    const priorCredentials = (await listCredentials(trx, user.id)).map((c) => c.id);
    const priorSessions = await listOpenSessionIds(trx, { userId: user.id }, now);
    // Revoked, not deleted: the sessions stay as history (their credential_id becomes null with the passkeys).
    await revokeSessions(trx, priorSessions, now);
    await deleteUserCredentials(trx, user.id);
    await storeCredential(trx, deps, user.id, credential, 'recovery');
    const cooldownUntil = isoAfter(deps.clock, LIFETIMES.tradeCooldown);
    await setTradeCooldown(trx, user.id, cooldownUntil);
    const canceledOrders = (await deps.onCredentialsReset?.(trx, user.id)) ?? 0;
    await appendAudit(trx, deps.clock, {
      actorUserId: user.id,
      action: 'user.credentials_reset',
      targetKind: 'user',
      targetId: user.id,
      context: {
        removed_credentials: priorCredentials,
        revoked_sessions: priorSessions.length,
        new_credential_id: credential.id,
        trade_cooldown_until: cooldownUntil,
        canceled_orders: canceledOrders,
        ip_prefix: client.ipPrefix,
      },
    });
    await auditSessionsRevoked(trx, deps.clock, user.id, priorSessions, { reason: 'credentials_reset' });
    await queueMail(trx, deps.clock, { to: user.email, userId: user.id, ...passkeysResetMail(deps.config.publicOrigin, cooldownUntil) });
    const session = await issueSession(trx, deps, { userId: user.id, credentialId: credential.id, client, ceremony: 'recovery' });
    return { user_id: user.id, role: user.role, ...session };
  });
}
