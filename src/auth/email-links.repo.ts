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
