import { compiledOnce } from '../platform/db/compiled-once.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { Ceremony, WebauthnChallengesTable } from '../platform/db/schema.js';

// Every sign-in stores one challenge and takes it back: both statements compiled once (issue 17).
const ID = '\u0000challenge-id';
const CEREMONY = '\u0000challenge-ceremony' as Ceremony;
const USER_ID = '\u0000challenge-user';
const CONTEXT = '\u0000challenge-context';
const EXPIRES_AT = '\u0000challenge-expires';
const CREATED_AT = '\u0000challenge-created';

const challengeInsert = compiledOnce([ID, CEREMONY, USER_ID, CONTEXT, EXPIRES_AT, CREATED_AT], (db) =>
  db
    .insertInto('webauthn_challenges')
    .values({ id: ID, ceremony: CEREMONY, user_id: USER_ID, context: CONTEXT, expires_at: EXPIRES_AT, created_at: CREATED_AT }),
);

const challengeTake = compiledOnce([ID], (db) => db.deleteFrom('webauthn_challenges').where('id', '=', ID).returningAll());

export async function insertChallenge(db: DbOrTx, row: WebauthnChallengesTable): Promise<void> {
  await db.executeQuery(challengeInsert(db, [row.id, row.ceremony, row.user_id, row.context, row.expires_at, row.created_at]));
}

/** Deletes and returns the row in one statement: whoever gets it back is its only user. */
export async function takeChallenge(db: DbOrTx, id: string): Promise<WebauthnChallengesTable | undefined> {
  const { rows } = await db.executeQuery(challengeTake(db, [id]));
  return rows[0];
}
