import type { DbOrTx } from '../platform/db/database.js';

export async function setDisplayName(db: DbOrTx, userId: string, displayName: string | null): Promise<void> {
  await db.updateTable('users').set({ display_name: displayName }).where('id', '=', userId).execute();
}

export async function findProfile(db: DbOrTx, userId: string): Promise<{ email: string; display_name: string | null } | undefined> {
  return db.selectFrom('users').select(['email', 'display_name']).where('id', '=', userId).executeTakeFirst();
}

/** The address of the newest rectification link still usable at `now`, if any: the pending email change. */
export async function findPendingEmail(db: DbOrTx, userId: string, now: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_verifications')
    .select('email')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'rectification')
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.email;
}
