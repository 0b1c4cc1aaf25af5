import { appendAudit } from '../platform/audit/audit.js';
import { HOUR, isoNow } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import { BadRequest, Forbidden, RateLimited } from '../platform/errors.js';
import { queueMail } from '../platform/mail/outbox.js';
import type { AuthDeps } from '../auth/auth-context.js';
import { sendEmailLink } from '../auth/email-links.service.js';
import { verifyStepUp } from '../auth/login.service.js';
import { normaliseEmail } from '../auth/registration.service.js';
import type { AuthContext } from '../auth/sessions.service.js';
import type { AuthenticationResponseJSON } from '../auth/webauthn.js';
import { emailChangeMail, emailChangeNoticeMail } from './privacy-mails.js';
import { findPendingEmail, findProfile, setDisplayName } from './profile.repo.js';

export interface ProfileChange {
  display_name?: string | null;
  email?: string;
  credential?: AuthenticationResponseJSON;
}

export interface ProfileView {
  email: string;
  display_name: string | null;
  pending_email: string | null;
}

/** Email changes mail an address the caller names: 3 an hour per account. */
export const EMAIL_CHANGE_LIMIT = { limit: 3, windowMs: HOUR } as const;

/**
 * `PATCH /api/gdpr/profile`. `display_name` changes at once (null or blank clears it). A new `email` needs a
 * fresh step-up in the same request (403 `step_up_required` without one); it mails a 15-minute `rectification`
 * link to the new address and a notice to the old one, and changes nothing else: the address moves when the
 * link is used (`GET /api/auth/email/verify`, which answers 409 `email_taken` if another account holds it then).
 */
export async function updateMyProfile(deps: AuthDeps, auth: AuthContext, change: ProfileChange): Promise<ProfileView> {
  if (change.display_name === undefined && change.email === undefined) {
    throw new BadRequest('validation_failed', 'Nothing to change: send display_name or email.', [{ field: 'body', message: 'must have display_name or email' }]);
  }
  const newEmail = change.email === undefined ? undefined : normaliseEmail(change.email);
  const emailChanges = newEmail !== undefined && newEmail !== auth.email;
  if (emailChanges) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(newEmail)) {
      throw new BadRequest('validation_failed', 'The new address is not an email address.', [{ field: 'body.email', message: 'must be an email address' }]);
    }
    if (!change.credential) throw new Forbidden('step_up_required', 'Confirm with your passkey to change your email address.');
    await verifyStepUp(deps, auth.userId, change.credential);
    const decision = await deps.rateLimiter.hit(`privacy.email-change:${auth.userId}`, EMAIL_CHANGE_LIMIT);
    if (!decision.allowed) {
      throw new RateLimited('rate_limited', `Too many email changes; try again in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    if (change.display_name !== undefined) {
      const name = change.display_name === null || change.display_name.trim() === '' ? null : change.display_name.trim();
      await setDisplayName(trx, auth.userId, name);
      await appendAudit(trx, deps.clock, { actorUserId: auth.userId, action: 'user.display_name_change', targetKind: 'user', targetId: auth.userId });
    }
    if (emailChanges) await startEmailChange(trx, deps, auth, newEmail);
    return profileView(trx, deps, auth.userId);
  });
}

async function startEmailChange(trx: DbOrTx, deps: AuthDeps, auth: AuthContext, newEmail: string): Promise<void> {
  const origin = deps.config.publicOrigin;
  await sendEmailLink(trx, deps.clock, { userId: auth.userId, email: newEmail, purpose: 'rectification', publicOrigin: origin, mail: emailChangeMail });
  await queueMail(trx, deps.clock, { to: auth.email, userId: auth.userId, ...emailChangeNoticeMail(origin, newEmail) });
  await appendAudit(trx, deps.clock, {
    actorUserId: auth.userId,
    action: 'user.email_change_requested',
    targetKind: 'user',
    targetId: auth.userId,
    context: { new_email: newEmail },
  });
}

export async function profileView(db: DbOrTx, deps: Pick<AuthDeps, 'clock'>, userId: string): Promise<ProfileView> {
  const profile = await findProfile(db, userId);
  if (!profile) throw new Forbidden('forbidden', 'This account is gone.');
  return { email: profile.email, display_name: profile.display_name, pending_email: (await findPendingEmail(db, userId, isoNow(deps.clock))) ?? null };
}
