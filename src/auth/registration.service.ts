import { appendAudit } from '../platform/audit/audit.js';
import { HOUR, isoNow } from '../platform/clock.js';
import { BadRequest, Forbidden } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { queueMail } from '../platform/mail/outbox.js';
import { isUndeliverable } from '../platform/mail/send-mail.job.js';
import type { AuthDeps, ClientInfo } from './auth-context.js';
import { consumeChallenge, issueChallenge } from './challenges.service.js';
import { findCredential, insertCredential } from './credentials.repo.js';
import { sendEmailLink } from './email-links.service.js';
import { alreadyRegisteredMail, verificationMail } from './auth-mails.js';
import { deleteUser, findUserByEmail, insertUser } from './users.repo.js';
import { creationOptions, newUserHandle, verifyNewCredential, type CreationOptions, type NewCredential, type RegistrationResponseJSON } from './webauthn.js';
import type { DbOrTx } from '../platform/db/database.js';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Beta: only allowlisted addresses may register. */
export function assertMayRegister(deps: AuthDeps, email: string): void {
  // `.invalid` (RFC 2606) can never be verified, and it names the AUTH_V1=off operator.
  if (isUndeliverable(email)) throw new BadRequest('email_undeliverable', 'Mail to this address cannot be delivered.');
  if (deps.config.authV1 === 'beta' && !deps.config.authBetaAllowlist.includes(email)) {
    throw new Forbidden('registration_closed', 'Registration is open to invited addresses only during the beta.');
  }
}

/**
 * Creation options for a new account. Nothing is looked up: a new and a taken address get the same
 * answer (a fresh random user handle each), so the response reveals nothing about who is registered.
 */
export async function registrationOptions(deps: AuthDeps, input: { email: string; displayName: string }): Promise<CreationOptions> {
  const email = normaliseEmail(input.email);
  assertMayRegister(deps, email);
  const displayName = input.displayName.trim();
  const userHandle = newUserHandle();
  const challenge = await issueChallenge(deps.db, deps.clock, 'registration', {
    context: { email, display_name: displayName, user_handle: userHandle },
  });
  return creationOptions(deps.config, { challenge, userHandle, userName: email, displayName: displayName || email, exclude: [] });
}

/**
 * Finishes a registration. New address: user + passkey + verification mail. Address of a verified (or
 * erased) account: nothing stored, the owner gets a notice, and the answer looks the same. Address of
 * an account never verified: it is replaced (see docs/auth.md, "Abandoned registrations").
 */
export async function verifyRegistration(
  deps: AuthDeps,
  response: RegistrationResponseJSON,
  client: ClientInfo,
): Promise<{ user_id: string; needs_email_verification: true }> {
  const ceremony = await consumeChallenge(deps.db, deps.clock, response.response?.clientDataJSON, 'registration');
  const { email, display_name: displayName, user_handle: userHandle } = ceremony.context as Record<string, string>;
  if (!email || userHandle === undefined) throw new BadRequest('challenge_invalid', 'The ceremony is not a registration.');
  assertMayRegister(deps, email);
  const credential = await verifyNewCredential(deps.config, response, ceremony.challenge);
  if (!credential) throw registrationFailed();
  // Counted before the transaction (the limiter has its own connection): notices to one address stay few.
  const noticeAllowed = (await deps.rateLimiter.hit(`auth.taken-notice:${email}`, { limit: 3, windowMs: HOUR })).allowed;

  // Two registrations racing for one address or one passkey: the loser is told to start again, not a 500.
  const clash = registrationFailed('Registration clashed with another one; start again.');
  return withUniqueViolationAs(clash, () =>
    deps.db
      .transaction()
      .execute((trx) => storeRegistration(trx, deps, { email, displayName: displayName ?? '', userHandle, credential, noticeAllowed, client })),
  );
}

async function storeRegistration(
  trx: DbOrTx,
  deps: AuthDeps,
  input: { email: string; displayName: string; userHandle: string; credential: NewCredential; noticeAllowed: boolean; client: ClientInfo },
): Promise<{ user_id: string; needs_email_verification: true }> {
  const { email, displayName, userHandle, credential, noticeAllowed, client } = input;
  const existing = await findUserByEmail(trx, email);
  // Before the taken-address branch, so a reused passkey is refused alike for a free and a taken address
  // (the one exception: the never-verified account being replaced, registering again with its own passkey).
  const reused = await findCredential(trx, credential.id);
  const replacingItsOwner = reused !== undefined && existing?.id === reused.user_id && existing.email_verified_at === null && existing.deleted_at === null;
  if (reused && !replacingItsOwner) throw registrationFailed('This passkey is already registered.');
  if (existing && (existing.email_verified_at !== null || existing.deleted_at !== null)) {
    if (existing.deleted_at === null && noticeAllowed) {
      await queueMail(trx, deps.clock, { to: email, userId: existing.id, ...alreadyRegisteredMail(deps.config.publicOrigin) });
    }
    return { user_id: newId(), needs_email_verification: true as const };
  }
  if (existing) await deleteUser(trx, existing.id);

  const userId = newId();
  await insertUser(trx, {
    id: userId,
    email,
    display_name: displayName || null,
    role: 'user',
    created_at: isoNow(deps.clock),
    webauthn_user_id: userHandle,
  });
  await appendAudit(trx, deps.clock, {
    actorUserId: userId,
    action: 'user.register',
    targetKind: 'user',
    targetId: userId,
    context: { credential_id: credential.id, replaced_unverified_account: existing !== undefined, ip_prefix: client.ipPrefix },
  });
  await storeCredential(trx, deps, userId, credential, 'registration');
  await sendEmailLink(trx, deps.clock, { userId, email, purpose: 'initial', publicOrigin: deps.config.publicOrigin, mail: verificationMail });
  return { user_id: userId, needs_email_verification: true as const };
}

/** Runs `work`; a unique-constraint violation (either dialect) becomes `replacement`. */
export async function withUniqueViolationAs<T>(replacement: Error, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw replacement;
    throw error;
  }
}

/** Stores a verified passkey for `userId` and audits `credential.add` (`via` says which ceremony added it). */
export async function storeCredential(
  db: DbOrTx,
  deps: AuthDeps,
  userId: string,
  credential: NewCredential,
  via: 'registration' | 'add_credential' | 'recovery',
): Promise<void> {
  await insertCredential(db, {
    id: credential.id,
    user_id: userId,
    public_key: credential.publicKey,
    sign_count: credential.signCount,
    transports: credential.transports,
    aaguid: credential.aaguid,
    device_label: null,
    created_at: isoNow(deps.clock),
    last_used_at: null,
    backup_eligible: credential.backupEligible,
    backup_state: credential.backupState,
  });
  await appendAudit(db, deps.clock, {
    actorUserId: userId,
    action: 'credential.add',
    targetKind: 'credential',
    targetId: credential.id,
    context: { via, aaguid: credential.aaguid, backup_eligible: credential.backupEligible },
  });
}

export function registrationFailed(message = 'The passkey could not be verified.'): BadRequest {
  return new BadRequest('registration_failed', message);
}
