import type { Insertable, Selectable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { HashKeysTable } from '../platform/db/schema.js';

export async function insertHashKeyIfAbsent(db: DbOrTx, row: Insertable<HashKeysTable>): Promise<void> {
  await db.insertInto('hash_keys').values(row).onConflict((c) => c.column('name').doNothing()).execute();
}

export async function findHashKey(db: DbOrTx, name: string): Promise<Selectable<HashKeysTable> | undefined> {
  return db.selectFrom('hash_keys').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Marks the account erased; false when it already was (or is gone). */
export async function markUserDeleted(db: DbOrTx, userId: string, at: string): Promise<boolean> {
  const result = await db.updateTable('users').set({ deleted_at: at }).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every open session of the user (expired ones too, so none reads as merely lapsed); the ids revoked. */
export async function revokeAllSessions(db: DbOrTx, userId: string, at: string): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Accounts erased at or before `cutoff`, the oldest erasure first: due for the purge (at `purge_after` exactly, too). */
export async function listUsersErasedBy(db: DbOrTx, cutoff: string): Promise<{ id: string; email: string; webauthn_user_id: string }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'webauthn_user_id'])
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<=', cutoff)
    .orderBy('deleted_at')
    .orderBy('id')
    .execute();
}

/** The user's audit rows as actor: `actor_user_id` null, the keyed hash in `actor_hash`. */
export async function pseudonymiseAuditActor(db: DbOrTx, userId: string, actorHash: string): Promise<void> {
  await db.updateTable('audit_entries').set({ actor_user_id: null, actor_hash: actorHash }).where('actor_user_id', '=', userId).execute();
}

/** Audit rows whose target is one of the user's identifiers (the account, a passkey): the target id becomes its keyed hash. */
export async function pseudonymiseAuditTarget(db: DbOrTx, id: string, hash: string): Promise<void> {
  await db.updateTable('audit_entries').set({ target_id: hash }).where('target_id', '=', id).execute();
}

export async function listCredentialIds(db: DbOrTx, userId: string): Promise<string[]> {
  return (await db.selectFrom('passkey_credentials').select('id').where('user_id', '=', userId).execute()).map((row) => row.id);
}

/** Passkeys the user acted on in the audit log, removed ones included. */
export async function listAuditedCredentialIds(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_entries')
    .select('target_id')
    .distinct()
    .where('actor_user_id', '=', userId)
    .where('target_kind', '=', 'credential')
    .where('target_id', 'is not', null)
    .execute();
  return rows.map((row) => row.target_id!);
}

/** Audit rows whose context names the user (by id or address). */
export async function listAuditContextsNaming(db: DbOrTx, needles: readonly string[]): Promise<{ id: number; context: string }[]> {
  const rows = await db
    .selectFrom('audit_entries')
    .select(['id', 'context'])
    .where((eb) => eb.or(needles.map((needle) => eb('context', 'like', `%${needle}%`))))
    .execute();
  return rows.flatMap((row) => (row.context === null ? [] : [{ id: Number(row.id), context: row.context }]));
}

export async function setAuditContext(db: DbOrTx, id: number, context: string): Promise<void> {
  await db.updateTable('audit_entries').set({ context }).where('id', '=', id).execute();
}

/** Breach incidents the erased admin opened keep the hash, not the id. */
export async function pseudonymiseIncidentOpener(db: DbOrTx, userId: string, actorHash: string): Promise<void> {
  await db.updateTable('breach_incidents').set({ opened_by: actorHash }).where('opened_by', '=', userId).execute();
}

/** Deletes the user; every table holding their rows cascades (passkeys, sessions, links, outbox, strategies, orders, paper account and positions, exports). */
export async function deleteErasedUser(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.deleteFrom('users').where('id', '=', userId).where('deleted_at', 'is not', null).executeTakeFirst();
  return Number(result.numDeletedRows);
}
