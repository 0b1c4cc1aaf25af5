import { compiledOnce } from '../platform/db/compiled-once.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { SessionsTable } from '../platform/db/schema.js';

export type SessionRow = SessionsTable;

/** What a session check needs of a session and its user (only these columns are read: issue 17). */
export interface SessionWithUser extends Pick<SessionRow, 'user_id' | 'credential_id' | 'expires_at' | 'revoked_at' | 'last_verified_at'> {
  email: string;
  display_name: string | null;
  role: 'user' | 'admin';
  deleted_at: string | null;
  webauthn_user_id: string;
}

const SESSION_COLUMNS = ['id', 'user_id', 'credential_id', 'issued_at', 'expires_at', 'revoked_at', 'user_agent', 'ip_prefix', 'last_verified_at'] as const;
const SESSION_VALUES = SESSION_COLUMNS.map((column) => `\u0000session-${column}`);
/** Every sign-in opens a session: the insert compiled once (issue 17). */
const sessionInsert = compiledOnce(SESSION_VALUES, (db) =>
  db.insertInto('sessions').values(Object.fromEntries(SESSION_COLUMNS.map((column, i) => [column, SESSION_VALUES[i]])) as unknown as SessionRow),
);

export async function insertSession(db: DbOrTx, row: SessionRow): Promise<void> {
  await db.executeQuery(sessionInsert(db, SESSION_COLUMNS.map((column) => row[column])));
}

const SESSION_ID = '\u0000session-id';
/** The session lookup every session-checked request makes, built and compiled once per database handle (issue 17). */
const sessionLookup = compiledOnce<SessionWithUser>([SESSION_ID], (db) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.user_id', 'sessions.credential_id', 'sessions.expires_at', 'sessions.revoked_at', 'sessions.last_verified_at'])
    .select(['users.email', 'users.display_name', 'users.role', 'users.deleted_at', 'users.webauthn_user_id'])
    .where('sessions.id', '=', SESSION_ID),
);

export async function findSessionWithUser(db: DbOrTx, idHash: string): Promise<SessionWithUser | undefined> {
  const { rows } = await db.executeQuery(sessionLookup(db, [idHash]));
  return rows[0];
}

/** Sessions still open (not revoked, not expired) of a user, or of one of their credentials. */
export async function listOpenSessionIds(
  db: DbOrTx,
  where: { userId: string; credentialId?: string },
  now: string,
): Promise<string[]> {
  let query = db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', where.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (where.credentialId !== undefined) query = query.where('credential_id', '=', where.credentialId);
  return (await query.execute()).map((row) => row.id);
}

export async function rollSession(db: DbOrTx, idHash: string, expiresAt: string, lastVerifiedAt?: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set(lastVerifiedAt ? { expires_at: expiresAt, last_verified_at: lastVerifiedAt } : { expires_at: expiresAt })
    .where('id', '=', idHash)
    .execute();
}

export async function setSessionVerifiedAt(db: DbOrTx, idHash: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_verified_at: at }).where('id', '=', idHash).execute();
}

/** Returns whether an open session was revoked by this call. */
export async function revokeSession(db: DbOrTx, idHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('id', '=', idHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes the given open sessions (kept, with `revoked_at`, as the history the devices page and the export show). */
export async function revokeSessions(db: DbOrTx, idHashes: readonly string[], at: string): Promise<void> {
  if (idHashes.length === 0) return;
  await db.updateTable('sessions').set({ revoked_at: at }).where('id', 'in', idHashes).where('revoked_at', 'is', null).execute();
}
