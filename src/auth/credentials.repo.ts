import { compiledOnce } from '../platform/db/compiled-once.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { PasskeyCredentialsTable } from '../platform/db/schema.js';
import type { Insertable, Selectable } from 'kysely';
import type { UserRow } from './users.repo.js';

export type CredentialRow = Selectable<PasskeyCredentialsTable>;

export async function insertCredential(db: DbOrTx, row: Insertable<PasskeyCredentialsTable>): Promise<void> {
  await db.insertInto('passkey_credentials').values(row).execute();
}

export async function findCredential(db: DbOrTx, id: string): Promise<CredentialRow | undefined> {
  return db.selectFrom('passkey_credentials').selectAll().where('id', '=', id).executeTakeFirst();
}

const CREDENTIAL_ID = '\u0000credential-id';
/**
 * A sign-in reads the passkey and its owner: one statement (a join) instead of two, compiled once (issue 17).
 * The owner's columns come back prefixed (`owner_`), the passkey's under their own names.
 */
const credentialWithOwner = compiledOnce([CREDENTIAL_ID], (db) =>
  db
    .selectFrom('passkey_credentials')
    .innerJoin('users', 'users.id', 'passkey_credentials.user_id')
    .selectAll('passkey_credentials')
    .select([
      'users.email as owner_email',
      'users.email_verified_at as owner_email_verified_at',
      'users.display_name as owner_display_name',
      'users.role as owner_role',
      'users.created_at as owner_created_at',
      'users.deleted_at as owner_deleted_at',
      'users.webauthn_user_id as owner_webauthn_user_id',
      'users.trade_cooldown_until as owner_trade_cooldown_until',
    ])
    .where('passkey_credentials.id', '=', CREDENTIAL_ID),
);

/** A passkey and the user it belongs to (every passkey has one: deleting a user deletes their passkeys). */
export async function findCredentialWithOwner(db: DbOrTx, id: string): Promise<{ credential: CredentialRow; user: UserRow } | undefined> {
  const { rows } = await db.executeQuery(credentialWithOwner(db, [id]));
  const row = rows[0];
  if (row === undefined) return undefined;
  const {
    owner_email,
    owner_email_verified_at,
    owner_display_name,
    owner_role,
    owner_created_at,
    owner_deleted_at,
    owner_webauthn_user_id,
    owner_trade_cooldown_until,
    ...credential
  } = row;
  const user: UserRow = {
    id: credential.user_id,
    email: owner_email,
    email_verified_at: owner_email_verified_at,
    display_name: owner_display_name,
    role: owner_role,
    created_at: owner_created_at,
    deleted_at: owner_deleted_at,
    webauthn_user_id: owner_webauthn_user_id,
    trade_cooldown_until: owner_trade_cooldown_until,
  };
  return { credential, user };
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
