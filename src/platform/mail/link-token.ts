import type { DbOrTx } from '../db/database.js';
import { newToken, sha256Hex } from '../ids.js';

/** Stands for a link's token in a queued mail body until delivery puts the real one in. */
export const LINK_TOKEN_PLACEHOLDER = '{link-token}';

/**
 * A link token that no one holds: a link row is created with this hash, and the real token is minted
 * when its mail is delivered.
 */
export function unmintedTokenHash(): string {
  return sha256Hex(newToken());
}

/**
 * Mints the token of a link about to be mailed and stores its SHA-256, replacing the hash of any token
 * minted for an earlier delivery attempt (so only the newest attempt's link works). Undefined when the
 * link is gone, used or expired (`now` is an ISO timestamp): a dead link is not worth a mail.
 */
export async function mintLinkToken(db: DbOrTx, linkId: string, now: string): Promise<string | undefined> {
  const token = newToken();
  const result = await db
    .updateTable('email_verifications')
    .set({ token_hash: sha256Hex(token) })
    .where('id', '=', linkId)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? token : undefined;
}
