import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { OPERATOR_EMAIL } from '../../src/auth/operator.js';
import { HOUR, isoAfter, isoNow } from '../../src/platform/clock.js';
import { migrateToLatest, type DatabaseHandle } from '../../src/platform/db/database.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { newToken, sha256Hex } from '../../src/platform/ids.js';
import { queueMail } from '../../src/platform/mail/outbox.js';
import { sendMailJob } from '../../src/platform/mail/send-mail.job.js';
import { mintEmailLinkToken } from '../../src/auth/email-links.service.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { createTestDatabase, DIALECTS } from '../helpers/dialects.js';
import { newAuthenticator } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

const LEGACY_OPERATOR_EMAIL = 'operator@localhost';

/** Migrates a database to 0004 only: the schema in which AUTH_V1=off made the operator a verified admin. */
async function migrateToLegacy(handle: DatabaseHandle): Promise<void> {
  const legacy = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= '0004_outbox_link'));
  const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => legacy }, ...(handle.schema ? { migrationTableSchema: handle.schema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

/**
 * The hole issue 16 names, walked as an attacker would: the AUTH_V1=off operator, left behind when the switch goes back
 * to `ga`, recovered by email into an admin session. Every step is refused.
 */
for (const dialect of DIALECTS) {
  describe(`the AUTH_V1=off operator is unreachable outside off [${dialect}]`, () => {
    const clock = new ManualClock('2026-06-01T10:00:00.000Z');
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let app: App;
    let operatorId: string;

    beforeAll(async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      const db = database.handle.db;
      // A database from before 0006, where `off` had created the operator as a verified admin at a deliverable address,
      // with a passkey, an open session and an unused recovery link already registered by someone.
      await migrateToLegacy(database.handle);
      operatorId = crypto.randomUUID();
      const now = isoNow(clock);
      await db.insertInto('users').values({ id: operatorId, email: LEGACY_OPERATOR_EMAIL, email_verified_at: now, display_name: 'Local operator', role: 'admin', created_at: now, webauthn_user_id: 'legacy-handle' }).execute();
      await db.insertInto('passkey_credentials').values({ id: 'planted', user_id: operatorId, public_key: new Uint8Array([1, 2, 3]), created_at: now }).execute();
      await db.insertInto('sessions').values({ id: sha256Hex('x'.repeat(43)), user_id: operatorId, credential_id: 'planted', issued_at: now, expires_at: isoAfter(clock, 12 * HOUR), revoked_at: null, user_agent: null, ip_prefix: null, last_verified_at: now }).execute();
      await migrateToLatest(database.handle);

      // Later `off` runs again (it finds the same row), then the switch goes back to `ga`.
      const off = await buildTestApp(database.handle, { clock, env: { AUTH_V1: 'off' } });
      expect((await off.inject({ url: '/api/strategies/active' })).statusCode).toBe(200);
      await off.close();
      app = await buildTestApp(database.handle, { clock });
    });
    afterAll(async () => {
      await app?.close();
      await database?.drop();
    });

    it('after migration 0006 the operator is an unverified plain user at an undeliverable address, with no passkey or open session', async () => {
      const db = database.handle.db;
      const rows = await db.selectFrom('users').selectAll().where('email', 'in', [LEGACY_OPERATOR_EMAIL, OPERATOR_EMAIL]).execute();
      expect(rows).toEqual([expect.objectContaining({ id: operatorId, email: OPERATOR_EMAIL, email_verified_at: null, role: 'user' })]);
      expect(await db.selectFrom('passkey_credentials').selectAll().where('user_id', '=', operatorId).execute()).toEqual([]);
      expect(await db.selectFrom('sessions').selectAll().where('user_id', '=', operatorId).where('revoked_at', 'is', null).execute()).toEqual([]);
    });

    it('recovery/start for either operator address mails nothing and creates no link', async () => {
      const attacker = new HttpClient(app);
      for (const email of [LEGACY_OPERATOR_EMAIL, OPERATOR_EMAIL, 'OPERATOR@tradelab.invalid']) {
        expect((await attacker.post('recovery/start', { email })).statusCode, email).toBe(202);
      }
      const db = database.handle.db;
      expect(await db.selectFrom('email_verifications').selectAll().where('user_id', '=', operatorId).execute()).toEqual([]);
      expect(await db.selectFrom('mail_outbox').selectAll().where('to_address', 'in', [LEGACY_OPERATOR_EMAIL, OPERATOR_EMAIL]).execute()).toEqual([]);
    });

    it('recovery/complete with a recovery link for the operator (one mailed before the fix) is refused at both steps', async () => {
      const token = newToken();
      await database.handle.db
        .insertInto('email_verifications')
        .values({ id: crypto.randomUUID(), user_id: operatorId, email: OPERATOR_EMAIL, token_hash: sha256Hex(token), expires_at: isoAfter(clock, 15 * 60_000), consumed_at: null, purpose: 'recovery', created_at: isoNow(clock) })
        .execute();
      const attacker = new HttpClient(app);
      const options = await attacker.post('recovery/complete', { token });
      expect(options.statusCode).toBe(404);
      expect(options.json().error).toBe('link_invalid');
      // Options made as if the first step had answered: the second step refuses the same way, and no passkey appears.
      const forged = newAuthenticator().createCredential({
        challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        rp: { id: 'localhost', name: 'tradelab' },
        user: { id: 'bGVnYWN5LWhhbmRsZQ', name: OPERATOR_EMAIL, displayName: 'Local operator' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      });
      const complete = await attacker.post('recovery/complete', { token, credential: forged });
      expect(complete.statusCode).toBe(404);
      expect(attacker.cookie).toBeUndefined();
      expect(await database.handle.db.selectFrom('passkey_credentials').selectAll().where('user_id', '=', operatorId).execute()).toEqual([]);
    });

    it('a session row for the operator opens nothing, and every admin route answers 401', async () => {
      const cookie = newToken();
      await database.handle.db.insertInto('passkey_credentials').values({ id: 'planted-2', user_id: operatorId, public_key: new Uint8Array([1]), created_at: isoNow(clock) }).execute();
      await database.handle.db
        .insertInto('sessions')
        .values({ id: sha256Hex(cookie), user_id: operatorId, credential_id: 'planted-2', issued_at: isoNow(clock), expires_at: isoAfter(clock, HOUR), revoked_at: null, user_agent: null, ip_prefix: null, last_verified_at: isoNow(clock) })
        .execute();
      const attacker = new HttpClient(app);
      attacker.cookie = cookie;
      expect((await attacker.get('/api/auth/session')).statusCode).toBe(401);
      for (const url of ['/api/admin/users', '/api/admin/audit', '/api/admin/breach']) expect((await attacker.get(url)).statusCode, url).toBe(401);
      expect((await attacker.post('step-up/options')).statusCode).toBe(401);
    });

    it('no mail reaches the operator’s address, and nobody can register it', async () => {
      const db = database.handle.db;
      const outboxId = await queueMail(db, clock, { to: OPERATOR_EMAIL, subject: 's', text: 't', html: 'h' });
      const sent: string[] = [];
      const job = sendMailJob({ db, clock, from: 'x@localhost', mintLinkToken: mintEmailLinkToken, transport: { send: async (m) => void sent.push(m.to), close: () => undefined } });
      await job({ id: 'j', kind: 'mail.send', payload: { outboxId }, attempt: 1, signal: new AbortController().signal });
      expect(sent).toEqual([]);
      const registered = await app.inject({ method: 'POST', url: '/api/auth/register/options', headers: { origin: TEST_ORIGIN }, payload: { email: OPERATOR_EMAIL, display_name: 'Me' } });
      expect(registered.statusCode).toBe(400);
      expect(registered.json().error).toBe('email_undeliverable');
    });
  });
}
