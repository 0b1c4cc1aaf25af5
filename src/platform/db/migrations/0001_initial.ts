import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The whole data model of the contract and the design. No column may hold a user secret:
 * `test/platform/db/schema.test.ts` reads the live schema to hold us to that.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);

  await db.schema
    .createTable('users')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    // Stored lower-cased, so that uniqueness ignores case.
    .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('email_verified_at', t.timestamp)
    .addColumn('display_name', 'text')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user').check(sql`role in ('user', 'admin')`))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp)
    .addColumn('webauthn_user_id', 'text', (c) => c.notNull().unique())
    .addColumn('trade_cooldown_until', t.timestamp)
    .execute();

  await db.schema
    .createTable('passkey_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', t.bytes, (c) => c.notNull().check(sql`${sql.raw(t.byteLength)}(public_key) > 0`))
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('aaguid', 'text')
    .addColumn('device_label', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('backup_eligible', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('backup_state', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('passkey_credentials_user_idx').on('passkey_credentials').column('user_id').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('consumed_at', t.timestamp)
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('initial', 'recovery', 'rectification')`))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').column('user_id').execute();
  await db.schema.createIndex('email_verifications_expiry_idx').on('email_verifications').column('expires_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().references('passkey_credentials.id').onDelete('cascade'))
    .addColumn('issued_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('user_agent', 'text')
    .addColumn('ip_prefix', 'text')
    .addColumn('last_verified_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_credential_idx').on('sessions').column('credential_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ceremony', 'text', (c) =>
      c.notNull().check(sql`ceremony in ('registration', 'authentication', 'add_credential', 'step_up', 'recovery')`),
    )
    .addColumn('user_id', t.uuid, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('context', 'text')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry_idx').on('webauthn_challenges').column('expires_at').execute();

  await db.schema
    .createTable('audit_entries')
    .addColumn('id', t.autoIncrement, (c) => t.autoIncrementPrimaryKey(c))
    // Not a foreign key: entries outlive the user (2 years) and then carry a salted hash of the id.
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    // No CHECK on target_kind: new kinds arrive with features, and SQLite cannot alter a CHECK in place.
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('context', 'text')
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_at_idx').on('audit_entries').column('at').execute();
  await db.schema.createIndex('audit_entries_actor_idx').on('audit_entries').columns(['actor_user_id', 'at']).execute();

  await db.schema
    .createTable('strategies')
    .addColumn('id', t.autoIncrement, (c) => t.autoIncrementPrimaryKey(c))
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('strategy_type', 'text', (c) =>
      c.notNull().check(sql`strategy_type in ('iron_condor', 'vertical_spread', 'equity_long', 'equity_short', 'custom')`),
    )
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('entry_symbol_allowlist', 'text')
    .addColumn('entry_max_position_size', t.double, (c) => c.check(sql`entry_max_position_size > 0`))
    .addColumn('entry_allowed_sides', 'text', (c) => c.check(sql`entry_allowed_sides in ('buy', 'sell', 'buy,sell')`))
    .addColumn('credit_min_amount', t.double, (c) => c.check(sql`credit_min_amount > 0`))
    .addColumn('exit_profit_target_pct', t.double, (c) => c.check(sql`exit_profit_target_pct > 0 and exit_profit_target_pct <= 10`))
    .addColumn('exit_stop_loss_pct', t.double, (c) => c.check(sql`exit_stop_loss_pct >= -1 and exit_stop_loss_pct < 0`))
    .addColumn('exit_max_dte', 'integer', (c) => c.check(sql`exit_max_dte > 0`))
    .addColumn('entry_rule', 'text')
    .addColumn('exit_rule', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('strategies_user_idx').on('strategies').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'done', 'dead')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', t.timestamp, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('finished_at', t.timestamp)
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_finished_idx').on('jobs').columns(['state', 'finished_at']).execute();
  await db.schema.createIndex('jobs_lease_idx').on('jobs').columns(['state', 'lease_expires_at']).execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('sent_at', t.timestamp)
    .execute();
  await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').column('created_at').execute();

  await db.schema
    .createTable('symbols')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bars')
    .addColumn('symbol', 'text', (c) => c.notNull().references('symbols.symbol').onDelete('cascade'))
    .addColumn('date', t.date, (c) => c.notNull())
    .addColumn('open', t.double, (c) => c.notNull())
    .addColumn('high', t.double, (c) => c.notNull())
    .addColumn('low', t.double, (c) => c.notNull())
    .addColumn('close', t.double, (c) => c.notNull())
    .addColumn('volume', t.double, (c) => c.notNull())
    .addPrimaryKeyConstraint('bars_pk', ['symbol', 'date'])
    .execute();

  await db.schema
    .createTable('paper_accounts')
    .addColumn('user_id', t.uuid, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('cash', t.double, (c) => c.notNull().defaultTo(100000))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('paper_positions')
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('qty', t.double, (c) => c.notNull())
    .addColumn('avg_price', t.double, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_positions_pk', ['user_id', 'symbol'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('strategy_id', t.bigintRef, (c) => c.references('strategies.id').onDelete('set null'))
    .addColumn('asset_class', 'text', (c) => c.notNull().check(sql`asset_class in ('equity', 'option')`))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn('qty', 'integer', (c) => c.notNull().check(sql`qty > 0`))
    .addColumn('order_type', 'text', (c) => c.notNull().check(sql`order_type in ('market', 'limit')`))
    .addColumn('limit_price', t.double)
    .addColumn('legs', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('accepted', 'filled', 'rejected', 'canceled')`))
    .addColumn('fill_price', t.double)
    .addColumn('filled_at', t.timestamp)
    .addColumn('reject_reason', 'text')
    // What the client said of its own compliance check (ignored when enforcement is on).
    .addColumn('compliance_checked', 'boolean')
    .addColumn('compliance_compliant', 'boolean')
    // The client's idempotency key: a retried submission finds its first order instead of placing a second.
    .addColumn('client_order_id', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('orders_client_order_id_unique', ['user_id', 'client_order_id'])
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('data_exports')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'ready', 'failed')`))
    .addColumn('file_path', 'text')
    .addColumn('byte_size', 'bigint')
    .addColumn('requested_at', t.timestamp, (c) => c.notNull())
    .addColumn('ready_at', t.timestamp)
    .addColumn('expires_at', t.timestamp)
    .execute();
  await db.schema.createIndex('data_exports_user_idx').on('data_exports').column('user_id').execute();

  await db.schema
    .createTable('breach_incidents')
    .addColumn('id', t.uuid, (c) => c.primaryKey())
    .addColumn('opened_by', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('low', 'medium', 'high')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'notifying', 'notified', 'closed')`))
    .addColumn('detected_at', t.timestamp, (c) => c.notNull())
    .addColumn('affected_users', 'integer')
    .addColumn('authority_deadline_at', t.timestamp, (c) => c.notNull())
    .addColumn('notified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', t.timestamp, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = [
    'rate_limit_counters',
    'breach_incidents',
    'data_exports',
    'orders',
    'paper_positions',
    'paper_accounts',
    'bars',
    'symbols',
    'mail_outbox',
    'jobs',
    'strategies',
    'audit_entries',
    'webauthn_challenges',
    'sessions',
    'email_verifications',
    'passkey_credentials',
    'users',
  ];
  for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
}
