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
 * Mints the token of the link `linkId` about to be mailed (`now` is an ISO timestamp), storing only its
 * SHA-256. Undefined when the link is not worth a mail (gone, used or expired). Implemented by the
 * feature that owns the link rows and handed to the send-mail job.
 */
export type MintLinkToken = (db: DbOrTx, linkId: string, now: string) => Promise<string | undefined>;

/**
 * Generates a fresh token and hands its SHA-256 to `storeHash`; returns the token when the hash was
 * stored, undefined when `storeHash` refused it. The token itself is never stored.
 */
export async function mintToken(storeHash: (tokenHash: string) => Promise<boolean>): Promise<string | undefined> {
  const token = newToken();
  return (await storeHash(sha256Hex(token))) ? token : undefined;
}
