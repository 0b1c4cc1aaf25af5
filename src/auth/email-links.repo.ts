import type { DbOrTx } from '../platform/db/database.js';
import type { EmailVerificationsTable } from '../platform/db/schema.js';

export type EmailLinkRow = EmailVerificationsTable;

export async function insertEmailLink(db: DbOrTx, row: EmailLinkRow): Promise<void> {
  await db.insertInto('email_verifications').values(row).execute();
}

export async function findEmailLinkByHash(db: DbOrTx, tokenHash: string): Promise<EmailLinkRow | undefined> {
  return db.selectFrom('email_verifications').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the link used; false when another request consumed it first. */
export async function consumeEmailLink(db: DbOrTx, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('email_verifications')
    .set({ consumed_at: at })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Replaces the token hash of a link still usable at `now` (unused, unexpired); false when the link is
 * gone, used or expired.
 */
export async function replaceUsableLinkTokenHash(db: DbOrTx, id: string, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('email_verifications')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
