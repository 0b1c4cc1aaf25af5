import type { Kysely } from 'kysely';

/**
 * A WebAuthn challenge is kept only as its SHA-256 (`webauthn_challenges.id`): the verify step reads
 * the challenge back from the signed `clientDataJSON`, and finding the row by its hash proves they match.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webauthn_challenges').dropColumn('challenge').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webauthn_challenges').addColumn('challenge', 'text', (c) => c.notNull().defaultTo('')).execute();
}
