import { isoAfter, isoNow, type Clock } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { VerificationPurpose } from '../platform/db/schema.js';
import { Conflict, Gone, NotFound } from '../platform/errors.js';
import { appendAudit } from '../platform/audit/audit.js';
import type { AuthDeps } from './auth-context.js';
import { findUserByEmail, findUserById, markEmailVerified } from './users.repo.js';
import { newId, sha256Hex } from '../platform/ids.js';
import { LINK_TOKEN_PLACEHOLDER, mintToken, unmintedTokenHash, type MintLinkToken } from '../platform/mail/link-token.js';
import { queueMail } from '../platform/mail/outbox.js';
import {
  consumeEmailLink,
  findEmailLinkByHash,
  insertEmailLink,
  replaceUsableLinkTokenHash,
  type EmailLinkRow,
} from './email-links.repo.js';
import { LIFETIMES } from './lifetimes.js';

const PAGE_OF: Record<VerificationPurpose, string> = {
  initial: '/verify-email',
  rectification: '/verify-email',
  recovery: '/recover',
};

/**
 * Creates a 15-minute single-use link and queues the mail carrying it, in the caller's transaction.
 * The token is minted only when the mail is delivered (`mintEmailLinkToken`); the database keeps its SHA-256.
 */
export async function sendEmailLink(
  db: DbOrTx,
  clock: Clock,
  input: {
    userId: string;
    email: string;
    purpose: VerificationPurpose;
    publicOrigin: string;
    mail: (link: string) => { subject: string; text: string; html: string };
  },
): Promise<void> {
  const linkId = newId();
  await insertEmailLink(db, {
    id: linkId,
    user_id: input.userId,
    email: input.email,
    token_hash: unmintedTokenHash(),
    expires_at: isoAfter(clock, LIFETIMES.emailLink),
    consumed_at: null,
    purpose: input.purpose,
    created_at: isoNow(clock),
  });
  const link = `${input.publicOrigin}${PAGE_OF[input.purpose]}?token=${LINK_TOKEN_PLACEHOLDER}`;
  await queueMail(db, clock, { to: input.email, userId: input.userId, linkId, ...input.mail(link) });
}

/**
 * The send-mail job's `mintLinkToken` for email links: mints the token of a link about to be mailed and
 * stores its SHA-256, replacing the hash of any token minted for an earlier delivery attempt (so only the
 * newest attempt's link works). Undefined when the link is gone, used or expired: a dead link is not worth a mail.
 */
export const mintEmailLinkToken: MintLinkToken = (db, linkId, now) =>
  mintToken((tokenHash) => replaceUsableLinkTokenHash(db, linkId, tokenHash, now));

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Finds a usable link of one of `purposes`: 404 `link_invalid` when unknown or malformed, 410
 * `link_used` / `link_expired`. Does not consume it.
 */
export async function findUsableLink(
  db: DbOrTx,
  clock: Clock,
  token: string,
  purposes: readonly VerificationPurpose[],
): Promise<EmailLinkRow> {
  const invalid = new NotFound('link_invalid', 'This link is not valid. Ask for a new one.');
  if (!TOKEN_SHAPE.test(token)) throw invalid;
  const link = await findEmailLinkByHash(db, sha256Hex(token));
  if (!link || !purposes.includes(link.purpose)) throw invalid;
  if (link.consumed_at !== null) throw linkUsed();
  if (link.expires_at <= isoNow(clock)) throw new Gone('link_expired', 'This link has expired. Ask for a new one.');
  return link;
}

export function linkUsed(): Gone {
  return new Gone('link_used', 'This link was already used. Ask for a new one if you still need it.');
}

/** Consumes an `initial` (or `rectification`) link and marks the address verified. No session is issued. */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<{ email_verified: true }> {
  return deps.db.transaction().execute(async (trx) => {
    const link = await findUsableLink(trx, deps.clock, token, ['initial', 'rectification']);
    const user = await findUserById(trx, link.user_id);
    if (!user || user.deleted_at !== null) throw new NotFound('link_invalid', 'This link is not valid. Ask for a new one.');
    const now = isoNow(deps.clock);
    const holder = link.email === user.email ? user : await findUserByEmail(trx, link.email);
    if (holder && holder.id !== user.id) throw new Conflict('email_taken', 'Another account uses this address now.');
    if (!(await consumeEmailLink(trx, link.id, now))) throw linkUsed();
    await markEmailVerified(trx, user.id, link.email, user.email_verified_at && link.purpose === 'initial' ? user.email_verified_at : now);
    await appendAudit(trx, deps.clock, {
      actorUserId: user.id,
      action: 'user.email_verified',
      targetKind: 'user',
      targetId: user.id,
      context: { purpose: link.purpose },
    });
    return { email_verified: true as const };
  });
}
