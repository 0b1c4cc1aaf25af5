import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Data-subject rights (issue 15).
 *
 * - `data_exports.bundle`: the export's zip, in the database so any instance serves it; written in the same
 *   transaction that marks the export `ready` (a worker killed mid-bundle leaves nothing behind).
 * - `audit_entries.actor_hash`: after the erasure purge, an erased actor's rows carry `actor_user_id` null and
 *   the HMAC-SHA-256 of their id here.
 * - `hash_keys`: server keys generated once and stored (the audit actor hash key): every instance agrees on them
 *   without configuration.
 * - `sessions.credential_id` becomes nullable with `on delete set null`: a session ended by removing its passkey
 *   (or by a recovery) is revoked and kept as history, not deleted with the passkey.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('data_exports').addColumn('bundle', t.bytes).execute();
  await db.schema.alterTable('audit_entries').addColumn('actor_hash', 'text').execute();
  await db.schema
    .createTable('hash_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('key_bytes', t.bytes, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  if (t.uuid === 'uuid') {
    await sql`alter table sessions alter column credential_id drop not null`.execute(db);
    await sql`alter table sessions drop constraint if exists sessions_credential_id_fkey`.execute(db);
    await sql`alter table sessions add constraint sessions_credential_id_fkey foreign key (credential_id) references passkey_credentials (id) on delete set null`.execute(db);
    return;
  }
  // SQLite cannot alter a foreign key: the table is rebuilt (nothing references sessions).
  await db.schema
    .createTable('sessions_0007')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.references('passkey_credentials.id').onDelete('set null'))
    .addColumn('issued_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('user_agent', 'text')
    .addColumn('ip_prefix', 'text')
    .addColumn('last_verified_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`insert into sessions_0007 (id, user_id, credential_id, issued_at, expires_at, revoked_at, user_agent, ip_prefix, last_verified_at)
    select id, user_id, credential_id, issued_at, expires_at, revoked_at, user_agent, ip_prefix, last_verified_at from sessions`.execute(db);
  await db.schema.dropTable('sessions').execute();
  await db.schema.alterTable('sessions_0007').renameTo('sessions').execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_credential_idx').on('sessions').column('credential_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('sessions').where('credential_id', 'is', null).execute();
  await db.schema.dropTable('hash_keys').execute();
  await db.schema.alterTable('audit_entries').dropColumn('actor_hash').execute();
  await db.schema.alterTable('data_exports').dropColumn('bundle').execute();
}
