import type { DbOrTx } from '../platform/db/database.js';
import type { WebauthnChallengesTable } from '../platform/db/schema.js';

export async function insertChallenge(db: DbOrTx, row: WebauthnChallengesTable): Promise<void> {
  await db.insertInto('webauthn_challenges').values(row).execute();
}

/** Deletes and returns the row in one statement: whoever gets it back is its only user. */
export async function takeChallenge(db: DbOrTx, id: string): Promise<WebauthnChallengesTable | undefined> {
  return db.deleteFrom('webauthn_challenges').where('id', '=', id).returningAll().executeTakeFirst();
}
