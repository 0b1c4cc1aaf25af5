import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, DIALECTS } from '../../helpers/dialects.js';
import { listLiveColumns, migrateToLatest } from '../../../src/platform/db/database.js';
import { migrations } from '../../../src/platform/db/migrations/index.js';
import { newId } from '../../../src/platform/ids.js';

/** Invariant 5 of the contract: no column may be able to hold one of these. */
const FORBIDDEN_COLUMN = /password|passcode|otp|totp|hotp|secret|seed|recovery_code|phone|sms/i;

const EXPECTED_TABLES = [
  'users',
  'passkey_credentials',
  'email_verifications',
  'sessions',
  'webauthn_challenges',
  'audit_entries',
  'strategies',
  'jobs',
  'mail_outbox',
  'symbols',
  'bars',
  'paper_accounts',
  'paper_positions',
  'orders',
  'option_structures',
  'data_exports',
  'breach_incidents',
  'rate_limit_counters',
  'hash_keys',
];

describeEachDialect('schema', (db, dialect) => {
  it('migrates up from an empty database, and a second run changes nothing', async () => {
    const fresh = await createTestDatabase(dialect, { migrate: false });
    try {
      expect(await migrateToLatest(fresh.handle)).toEqual(['0001_initial', '0002_bars_version', '0003_challenge_hash_only', '0004_outbox_link', '0005_paper_money', '0006_admin_breach', '0007_data_rights', '0008_incident_steps_export_tombstones', '0009_option_structures', '0010_bar_sources', '0011_order_fill_source', '0012_option_settlement', '0013_trailing_stop', '0014_options_spec']);
      expect(await migrateToLatest(fresh.handle)).toEqual([]);
      const tables = (await listLiveColumns(fresh.handle)).map((c) => c.table);
      expect(tables).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    } finally {
      await fresh.drop();
    }
  });

  it('0010 records the source of the bars already stored: the demo SPX as "demo", every other symbol as "import"', async () => {
    const fresh = await createTestDatabase(dialect, { migrate: false });
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0010'));
      const migrator = new Migrator({ db: fresh.handle.db, provider: { getMigrations: async () => before }, ...(fresh.handle.schema ? { migrationTableSchema: fresh.handle.schema } : {}) });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const created_at = '2026-03-04T05:06:07.890Z';
      await fresh.handle.db
        .insertInto('symbols')
        .values([{ symbol: 'SPX', name: 'S&P 500 Index', created_at }, { symbol: 'AAPL', name: 'AAPL', created_at }])
        .execute();
      expect(await migrateToLatest(fresh.handle)).toEqual(Object.keys(migrations).filter((name) => name >= '0010'));
      const sources = await fresh.handle.db.selectFrom('symbols').select(['symbol', 'bars_source']).orderBy('symbol').execute();
      expect(sources).toEqual([{ symbol: 'AAPL', bars_source: 'import' }, { symbol: 'SPX', bars_source: 'demo' }]);
      await expect(fresh.handle.db.updateTable('symbols').set({ bars_source: 'elsewhere' as never }).execute()).rejects.toThrow();
    } finally {
      await fresh.drop();
    }
  });

  it('has no column for a password, code seed, recovery code or phone number (live schema)', async () => {
    const columns = await listLiveColumns(db().handle);
    expect(columns.length).toBeGreaterThan(50);
    const offending = columns.filter(({ column }) => FORBIDDEN_COLUMN.test(column));
    expect(offending).toEqual([]);
  });

  it('keeps emails unique and removes credentials with their user', async () => {
    const { db: kysely } = db().handle;
    const userId = newId();
    const now = new Date().toISOString();
    const user = { email: 'ann@example.com', role: 'user' as const, created_at: now };
    await kysely.insertInto('users').values({ ...user, id: userId, webauthn_user_id: 'handle-1' }).execute();
    await expect(
      kysely.insertInto('users').values({ ...user, id: newId(), webauthn_user_id: 'handle-2' }).execute(),
    ).rejects.toThrow();
    await kysely
      .insertInto('passkey_credentials')
      .values({ id: 'cred-1', user_id: userId, public_key: new Uint8Array([1, 2, 3]), created_at: now })
      .execute();
    const stored = await kysely.selectFrom('passkey_credentials').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ sign_count: 0, backup_eligible: false, backup_state: false });
    expect(Buffer.from(stored.public_key)).toEqual(Buffer.from([1, 2, 3]));

    await kysely.deleteFrom('users').where('id', '=', userId).execute();
    expect(await kysely.selectFrom('passkey_credentials').selectAll().execute()).toEqual([]);
  });

  it('refuses an email that is not lower-cased, so uniqueness cannot be dodged by case', async () => {
    const { db: kysely } = db().handle;
    await expect(
      kysely
        .insertInto('users')
        .values({ id: newId(), email: 'Ann@Example.com', role: 'user', created_at: new Date().toISOString(), webauthn_user_id: 'h-case' })
        .execute(),
    ).rejects.toThrow();
  });

  it('refuses an empty public key, an unknown role and an unknown verification purpose', async () => {
    const { db: kysely } = db().handle;
    const userId = newId();
    const now = new Date().toISOString();
    await kysely
      .insertInto('users')
      .values({ id: userId, email: 'bo@example.com', role: 'user', created_at: now, webauthn_user_id: 'handle-3' })
      .execute();
    await expect(
      kysely
        .insertInto('passkey_credentials')
        .values({ id: 'cred-empty', user_id: userId, public_key: new Uint8Array(), created_at: now })
        .execute(),
    ).rejects.toThrow();
    await expect(
      kysely
        .insertInto('users')
        .values({ id: newId(), email: 'x@example.com', role: 'root' as 'user', created_at: now, webauthn_user_id: 'h4' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      kysely
        .insertInto('email_verifications')
        .values({
          id: newId(),
          user_id: userId,
          email: 'bo@example.com',
          token_hash: 'a'.repeat(64),
          expires_at: now,
          purpose: 'login' as 'initial',
          created_at: now,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it('0013 keeps a strategy’s trailing stop a fraction in (0, 1), null by default', async () => {
    const { db: kysely } = db().handle;
    const userId = newId();
    const now = new Date().toISOString();
    await kysely.insertInto('users').values({ id: userId, email: 'trail@example.com', role: 'user', created_at: now, webauthn_user_id: 'handle-trail' }).execute();
    const strategy = (trailing?: number) =>
      kysely
        .insertInto('strategies')
        .values({ user_id: userId, name: 't', strategy_type: 'equity_long', created_at: now, updated_at: now, ...(trailing === undefined ? {} : { exit_trailing_stop_pct: trailing }) })
        .returning(['exit_trailing_stop_pct'])
        .executeTakeFirstOrThrow();
    expect(await strategy()).toEqual({ exit_trailing_stop_pct: null });
    expect(await strategy(0.25)).toEqual({ exit_trailing_stop_pct: 0.25 });
    for (const outside of [0, 1, -0.1, 1.5]) await expect(strategy(outside)).rejects.toThrow();
  });

  it('reads timestamps, dates, booleans and auto-increment ids back the same way on every dialect', async () => {
    const { db: kysely } = db().handle;
    const userId = newId();
    await kysely
      .insertInto('users')
      .values({
        id: userId,
        email: 'cy@example.com',
        role: 'user',
        created_at: '2026-03-04T05:06:07.890Z',
        webauthn_user_id: 'handle-5',
      })
      .execute();
    const strategy = await kysely
      .insertInto('strategies')
      .values({
        user_id: userId,
        name: 'Trend',
        strategy_type: 'equity_long',
        is_active: false,
        entry_max_position_size: 2500.5,
        created_at: '2026-03-04T05:06:07.890Z',
        updated_at: '2026-03-04T05:06:07.890Z',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(typeof strategy.id).toBe('number');
    expect(strategy).toMatchObject({ is_active: false, entry_max_position_size: 2500.5, created_at: '2026-03-04T05:06:07.890Z' });
    const active = await kysely.selectFrom('strategies').select('id').where('is_active', '=', false).execute();
    expect(active).toHaveLength(1);

    await kysely.insertInto('symbols').values({ symbol: 'SPX', name: 'S&P 500 Index', created_at: '2026-03-04T05:06:07.890Z' }).execute();
    await kysely
      .insertInto('bars')
      .values({ symbol: 'SPX', date: '2020-01-02', open: 1, high: 2, low: 0.5, close: 1.5, volume: 3_000_000_000 })
      .execute();
    const bar = await kysely.selectFrom('bars').selectAll().executeTakeFirstOrThrow();
    expect(bar).toEqual({ symbol: 'SPX', date: '2020-01-02', open: 1, high: 2, low: 0.5, close: 1.5, volume: 3_000_000_000 });
  });
});

it.runIf(DIALECTS.includes('postgres'))('introspects only its own PostgreSQL schema, so a schema dropped elsewhere cannot fail a migration', async () => {
  const ours = await createTestDatabase('postgres');
  const other = await createTestDatabase('postgres', { migrate: false });
  try {
    await other.handle.db.schema.createTable('someone_elses').addColumn('id', 'integer').execute();
    // Kysely's own introspector reads every schema (and fails when one vanishes under it).
    const tables = await ours.handle.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'kysely_migration']));
    expect(tables.map((t) => t.name)).not.toContain('someone_elses');
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours.handle.schema]));
  } finally {
    await other.drop();
    await ours.drop();
  }
});

it('runs database tests on every dialect that is configured', () => {
  expect(DIALECTS).toContain('sqlite');
  if (process.env.CI) expect(DIALECTS).toContain('postgres');
});
