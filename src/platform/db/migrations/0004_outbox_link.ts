import type { Kysely } from 'kysely';

/**
 * `mail_outbox.link_id` names the `email_verifications` row whose link the mail carries. The body holds a
 * placeholder; the send-mail job mints the token at delivery, so no link token ever rests in the outbox.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('link_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('link_id').execute();
}
