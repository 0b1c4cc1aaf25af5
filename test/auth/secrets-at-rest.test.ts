import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { listLiveColumns } from '../../src/platform/db/database.js';
import { sha256Hex } from '../../src/platform/ids.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, mailedTokens, signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

/**
 * The no-secrets invariant, checked on the data a full journey leaves behind: the session cookie and
 * the link tokens appear nowhere in the database (only their SHA-256 does; a link's token is minted when
 * its mail is delivered), and no table has a column for a password, one-time code, recovery code or phone.
 */
describeEachDialect('auth: secrets at rest', (database) => {
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function everyRowAsText(except: readonly string[]): Promise<Record<string, string>> {
    const columns = await listLiveColumns(database().handle);
    const tables = [...new Set(columns.map((c) => c.table))].filter((t) => !t.startsWith('kysely_') && !except.includes(t));
    const out: Record<string, string> = {};
    for (const table of tables) {
      const rows = await db().selectFrom(table as 'users').selectAll().execute();
      out[table] = JSON.stringify(rows, (_key, value: unknown) =>
        value instanceof Uint8Array ? Buffer.from(value).toString('base64url') : value,
      );
    }
    return out;
  }

  it('the session cookie and link tokens are stored only as SHA-256, in no table, the mail outbox included', async () => {
    const client = new HttpClient(app);
    const account = await signedInAccount(client, db());
    expect((await new HttpClient(app).post('recovery/start', { email: account.email })).statusCode).toBe(202);
    const queued = await db().selectFrom('mail_outbox').select('text_body').where('to_address', '=', account.email).where('sent_at', 'is', null).execute();
    expect(queued.map((m) => m.text_body).join('\n')).toContain('?token={link-token}');
    const recoveryToken = await latestLinkToken(db(), account.email);
    const stepUp = (await client.post('step-up/options')).json();
    expect((await client.post('step-up/verify', account.authenticator.getAssertion(stepUp))).statusCode).toBe(200);

    const cookie = client.cookie!;
    const linkTokens = await mailedTokens(db(), account.email);
    expect(linkTokens.length).toBeGreaterThanOrEqual(2);
    expect(linkTokens).toContain(recoveryToken);

    for (const [table, text] of Object.entries(await everyRowAsText([]))) {
      expect(text.includes(cookie), `session cookie in ${table}`).toBe(false);
      for (const token of linkTokens) expect(text.includes(token), `link token in ${table}`).toBe(false);
    }

    const session = await db().selectFrom('sessions').select('id').where('id', '=', sha256Hex(cookie)).executeTakeFirst();
    expect(session, 'the session row is keyed by the SHA-256 of the cookie').toBeDefined();
    for (const token of linkTokens) {
      const link = await db().selectFrom('email_verifications').select('id').where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
      expect(link, 'each link row holds the SHA-256 of its token').toBeDefined();
    }
  });

  it('an open WebAuthn challenge is stored only as its SHA-256', async () => {
    const options = (await new HttpClient(app).post('login/options')).json();
    const rows = await everyRowAsText(['mail_outbox']);
    for (const [table, text] of Object.entries(rows)) expect(text.includes(options.challenge), `challenge in ${table}`).toBe(false);
    const row = await db().selectFrom('webauthn_challenges').select('ceremony').where('id', '=', sha256Hex(options.challenge)).executeTakeFirst();
    expect(row).toEqual({ ceremony: 'authentication' });
  });

  it('no column can hold a password, one-time code, recovery code or phone number', async () => {
    const columns = await listLiveColumns(database().handle);
    expect(columns.length).toBeGreaterThan(20);
    const suspicious = columns.filter(({ column }) => /pass(word|wd|phrase)|otp|totp|hotp|one_time|recovery_code|backup_code|phone|sms|secret|pin$/i.test(column));
    expect(suspicious).toEqual([]);
  });
});
