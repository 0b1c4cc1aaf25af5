import type { DbOrTx } from '../platform/db/database.js';
import type { PasskeyCredentialsTable } from '../platform/db/schema.js';
import type { Insertable, Selectable } from 'kysely';

export type CredentialRow = Selectable<PasskeyCredentialsTable>;

export async function insertCredential(db: DbOrTx, row: Insertable<PasskeyCredentialsTable>): Promise<void> {
  await db.insertInto('passkey_credentials').values(row).execute();
}

export async function findCredential(db: DbOrTx, id: string): Promise<CredentialRow | undefined> {
  return db.selectFrom('passkey_credentials').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listCredentials(db: DbOrTx, userId: string): Promise<CredentialRow[]> {
  return db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Records a verified use; false when the stored counter moved on meanwhile (a racing sign-in). */
export async function recordCredentialUse(
  db: DbOrTx,
  id: string,
  use: { signCount: number; backupEligible: boolean; backupState: boolean; at: string },
): Promise<boolean> {
  // Conditioned on the counter still being below the new one, so two racing sign-ins cannot both use one value.
  const result = await db
    .updateTable('passkey_credentials')
    .set({ sign_count: use.signCount, backup_eligible: use.backupEligible, backup_state: use.backupState, last_used_at: use.at })
    .where('id', '=', id)
    .where('sign_count', use.signCount === 0 ? '=' : '<', use.signCount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function renameCredential(db: DbOrTx, userId: string, id: string, label: string): Promise<number> {
  const result = await db
    .updateTable('passkey_credentials')
    .set({ device_label: label })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes one credential; its sessions go with it (foreign key cascade). */
export async function deleteCredential(db: DbOrTx, userId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('passkey_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteUserCredentials(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.deleteFrom('passkey_credentials').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
