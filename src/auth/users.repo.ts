import type { Insertable, Selectable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { UsersTable } from '../platform/db/schema.js';

export type UserRow = Selectable<UsersTable>;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** PostgreSQL: holds the user's row lock to the end of the transaction, so rules counting their passkeys do not race. */
export async function lockUser(db: DbOrTx, id: string, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const query = db.selectFrom('users').select('id').where('id', '=', id);
  await (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

/**
 * PostgreSQL: the user's row under a share lock to the end of the transaction. Trades take it before the paper
 * account's lock; erasure and recovery lock the row for update before the account, so either waits for the other
 * (never each for the other) and a trade reads what they committed.
 */
export async function lockUserShared(db: DbOrTx, id: string, dialect: 'sqlite' | 'postgres'): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forShare() : query).executeTakeFirst();
}

export async function insertUser(db: DbOrTx, user: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Inserts unless the email is taken (a concurrent insert of the same address is not an error). */
export async function insertUserIfAbsent(db: DbOrTx, user: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(user).onConflict((c) => c.column('email').doNothing()).execute();
}

/** Removes a user and, by cascade, their passkeys, sessions, links and outbox rows. */
export async function deleteUser(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export async function markEmailVerified(db: DbOrTx, id: string, email: string, at: string): Promise<void> {
  await db.updateTable('users').set({ email, email_verified_at: at }).where('id', '=', id).execute();
}

export async function setTradeCooldown(db: DbOrTx, id: string, until: string): Promise<void> {
  await db.updateTable('users').set({ trade_cooldown_until: until }).where('id', '=', id).execute();
}

export async function setRole(db: DbOrTx, id: string, role: 'user' | 'admin'): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
}
