import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, newAuthenticator, registrationOptions, signedInAccount, uniqueEmail } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { countRows, expectRefusal, snapshot } from './refusals-kit.js';

const UNKNOWN_TOKEN = 'A'.repeat(43);

/**
 * Email and recovery links (unknown, malformed, expired, reused, wrong purpose) and sessions (expired,
 * revoked, tampered): a clear 4xx, no session, nothing changed.
 */
describeEachDialect('auth refusals: links and sessions', (database) => {
  let app: App;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function refusedWithoutChange(act: () => Promise<LightMyRequestResponse>, status: number, error: string): Promise<void> {
    const before = await snapshot(db());
    const audit = await countRows(db(), 'audit_entries');
    const mail = await countRows(db(), 'mail_outbox');
    expectRefusal(await act(), status, error);
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(audit);
    expect(await countRows(db(), 'mail_outbox')).toBe(mail);
  }

  /** Registers an account (not yet verified) and returns its email and mailed token. */
  async function registered(client = new HttpClient(app)): Promise<{ email: string; token: string }> {
    const email = uniqueEmail();
    const options = await registrationOptions(client, email);
    expect((await client.post('register/verify', newAuthenticator().createCredential(options))).statusCode).toBe(201);
    return { email, token: await latestLinkToken(db(), email) };
  }

  /** A verified, signed-in account and the token of a recovery link mailed to it. */
  async function recoverable(): Promise<{ client: HttpClient; email: string; token: string }> {
    const client = new HttpClient(app);
    const { email } = await signedInAccount(client, db());
    expect((await new HttpClient(app).post('recovery/start', { email })).statusCode).toBe(202);
    return { client, email, token: await latestLinkToken(db(), email) };
  }

  // --- email verification links -------------------------------------------------------------

  it('an unknown email token is 404 link_invalid; a malformed one too', async () => {
    const client = new HttpClient(app);
    await refusedWithoutChange(() => client.get(`email/verify?token=${UNKNOWN_TOKEN}`), 404, 'link_invalid');
    await refusedWithoutChange(() => client.get('email/verify?token=not-a-token'), 404, 'link_invalid');
    await refusedWithoutChange(() => client.get(`email/verify?token=${'%27%22'.repeat(10)}`), 404, 'link_invalid');
  });

  it('an email token is good for 15 minutes: at 14:59 it verifies, at 15:00 it is 410 link_expired', async () => {
    const good = await registered();
    clock.advance(15 * MINUTE - SECOND);
    expect((await new HttpClient(app).get(`email/verify?token=${good.token}`)).statusCode).toBe(200);

    const late = await registered();
    clock.advance(15 * MINUTE);
    await refusedWithoutChange(() => new HttpClient(app).get(`email/verify?token=${late.token}`), 410, 'link_expired');
  });

  it('a used email token is 410 link_used', async () => {
    const { token } = await registered();
    expect((await new HttpClient(app).get(`email/verify?token=${token}`)).statusCode).toBe(200);
    await refusedWithoutChange(() => new HttpClient(app).get(`email/verify?token=${token}`), 410, 'link_used');
  });

  it('a recovery token does not verify an email address (404 link_invalid)', async () => {
    const { token } = await recoverable();
    await refusedWithoutChange(() => new HttpClient(app).get(`email/verify?token=${token}`), 404, 'link_invalid');
  });

  // --- recovery links -----------------------------------------------------------------------

  it('an unknown or malformed recovery token is 404 link_invalid, for the options and the completion', async () => {
    const client = new HttpClient(app);
    const credential = newAuthenticator().createCredential((await registrationOptions(client, uniqueEmail())));
    await refusedWithoutChange(() => client.post('recovery/complete', { token: UNKNOWN_TOKEN }), 404, 'link_invalid');
    await refusedWithoutChange(() => client.post('recovery/complete', { token: 'short' }), 404, 'link_invalid');
    await refusedWithoutChange(() => client.post('recovery/complete', { token: UNKNOWN_TOKEN, credential }), 404, 'link_invalid');
  });

  it('an email-verification token is not a recovery token (404 link_invalid)', async () => {
    const { token } = await registered();
    await refusedWithoutChange(() => new HttpClient(app).post('recovery/complete', { token }), 404, 'link_invalid');
  });

  it('an expired recovery token is 410 link_expired, also when its options were fetched in time', async () => {
    const { token } = await recoverable();
    const client = new HttpClient(app);
    clock.advance(15 * MINUTE - 30 * SECOND);
    const options = await client.post('recovery/complete', { token });
    expect(options.statusCode, options.body).toBe(200);
    clock.advance(31 * SECOND);
    const credential = newAuthenticator().createCredential(options.json());
    await refusedWithoutChange(() => client.post('recovery/complete', { token, credential }), 410, 'link_expired');
    await refusedWithoutChange(() => client.post('recovery/complete', { token }), 410, 'link_expired');
  });

  it('a used recovery token is 410 link_used', async () => {
    const { token } = await recoverable();
    const client = new HttpClient(app);
    const options = (await client.post('recovery/complete', { token })).json();
    const done = await client.post('recovery/complete', { token, credential: newAuthenticator().createCredential(options) });
    expect(done.statusCode, done.body).toBe(200);

    const again = new HttpClient(app);
    await refusedWithoutChange(() => again.post('recovery/complete', { token }), 410, 'link_used');
  });

  it("a recovery ceremony started with one link cannot be finished with another link's token", async () => {
    const { email, token: first } = await recoverable();
    expect((await new HttpClient(app).post('recovery/start', { email })).statusCode).toBe(202);
    const second = await latestLinkToken(db(), email);
    expect(second).not.toBe(first);
    const client = new HttpClient(app);
    const options = (await client.post('recovery/complete', { token: first })).json();
    await refusedWithoutChange(
      () => client.post('recovery/complete', { token: second, credential: newAuthenticator().createCredential(options) }),
      400,
      'challenge_invalid',
    );
  });

  // --- sessions -----------------------------------------------------------------------------

  it('a session is good until 12 h after issue: at 11:59 it answers, at 12:00 it is 401 everywhere', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    clock.advance(12 * HOUR - MINUTE);
    expect((await client.get('session')).statusCode).toBe(200);
    clock.advance(MINUTE);
    await refusedWithoutChange(() => client.get('session'), 401, 'unauthenticated');
    await refusedWithoutChange(() => client.post('session/refresh', {}), 401, 'unauthenticated');
    await refusedWithoutChange(() => client.post('step-up/options'), 401, 'unauthenticated');
    await refusedWithoutChange(() => client.get('credentials'), 401, 'unauthenticated');
    await refusedWithoutChange(() => client.post('credentials/add/options'), 401, 'unauthenticated');
  });

  it('a session check is one read: it writes nothing and does not roll the expiry (only session/refresh does)', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    const expiresAt = (await client.get('session')).json().expires_at;
    const before = await snapshot(db());
    const audit = await countRows(db(), 'audit_entries');
    for (const step of [HOUR, 5 * HOUR, 6 * HOUR - 2 * MINUTE]) {
      clock.advance(step);
      const answer = await client.get('session');
      expect(answer.statusCode).toBe(200);
      expect(answer.json().expires_at).toBe(expiresAt);
    }
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(audit);
    clock.advance(2 * MINUTE); // 12 h after issue, however many checks came in between
    expectRefusal(await client.get('session'), 401, 'unauthenticated');
  });

  it('a logged-out session is 401; logging out again changes nothing', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    const cookie = client.cookie;
    expect((await client.post('logout')).statusCode).toBe(204);
    client.cookie = cookie;
    await refusedWithoutChange(() => client.get('session'), 401, 'unauthenticated');
    await refusedWithoutChange(() => client.post('session/refresh', {}), 401, 'unauthenticated');
    const before = await snapshot(db());
    expect((await client.post('logout')).statusCode).toBe(204);
    expect(await snapshot(db())).toEqual(before);
  });

  it('the session of a deleted passkey is 401', async () => {
    const first = new HttpClient(app);
    const account = await signedInAccount(first, db());
    const addOptions = (await first.post('credentials/add/options')).json();
    const second = newAuthenticator();
    expect((await first.post('credentials/add/verify', second.createCredential(addOptions))).statusCode).toBe(201);
    const other = new HttpClient(app);
    const login = await other.post('login/verify', second.getAssertion((await other.post('login/options')).json()));
    expect(login.statusCode, login.body).toBe(200);
    expect((await other.request('DELETE', `credentials/${account.credentialId}`)).statusCode).toBe(204);
    await refusedWithoutChange(() => first.get('session'), 401, 'unauthenticated');
  });

  it('a tampered or made-up session cookie is 401', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    const real = client.cookie!;
    for (const cookie of [real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A'), UNKNOWN_TOKEN, 'x', `${real}x`]) {
      client.cookie = cookie;
      await refusedWithoutChange(() => client.get('session'), 401, 'unauthenticated');
    }
  });

  it('after 24 h without a user-verified assertion, refresh is 403 step_up_required; a bad assertion then is refused', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    clock.advance(11 * HOUR);
    expect((await client.post('session/refresh', {})).statusCode).toBe(200);
    clock.advance(11 * HOUR);
    expect((await client.post('session/refresh', {})).statusCode).toBe(200);
    clock.advance(2 * HOUR);
    const before = await snapshot(db());
    const due = await client.post('session/refresh', {});
    expect(due.statusCode, due.body).toBe(403);
    expect(due.json()).toMatchObject({ error: 'step_up_required', options: { challenge: expect.any(String) } });
    expect(await snapshot(db())).toEqual(before);
    const options = due.json().options;
    await refusedWithoutChange(
      () => client.post('session/refresh', authenticator.getAssertion(options, { flags: { uv: false } })),
      401,
      'authentication_failed',
    );
  });
});
