import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/ids.js';
import { SEND_MAIL_JOB } from '../../src/platform/mail/outbox.js';
import { mintEmailLinkToken } from '../../src/auth/email-links.service.js';
import { sendMailJob } from '../../src/platform/mail/send-mail.job.js';
import { createMailTransport } from '../../src/platform/mail/transport.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, mailsTo, newAuthenticator, register, signedInAccount, signIn } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('passkey account journeys over HTTP', (database) => {
  const clock = new ManualClock('2026-03-02T08:00:00.000Z');
  let app: App;
  const db = () => database().handle.db;
  const audit = async (action: string) =>
    db().selectFrom('audit_entries').selectAll().where('action', '=', action).orderBy('id').execute();

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => {
    await app.close();
  });

  it('registers, verifies by mail, signs in, adds and uses a second device, renames, deletes, refreshes, steps up, logs out', async () => {
    const phone = newAuthenticator({ algorithm: 'ES256' });
    const laptop = newAuthenticator({ algorithm: 'EdDSA', signCount: 'zero', backupEligible: false });
    // From loopback: the session row records the client's /24.
    const browser = new HttpClient(app, { address: '127.0.0.1' });

    // Register: 201, an unverified user with one passkey, a verification mail.
    const options = await browser.post('/api/auth/register/options', { email: 'Ann@Example.com', display_name: 'Ann' });
    expect(options.statusCode).toBe(200);
    const creation = options.json();
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(creation.attestation).toBe('none');
    expect(creation.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    const registered = await browser.post('/api/auth/register/verify', phone.createCredential(creation));
    expect(registered.statusCode).toBe(201);
    const userId = registered.json().user_id;
    expect(registered.json()).toEqual({ user_id: userId, needs_email_verification: true });
    expect(browser.cookie).toBeUndefined();
    const user = await db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'ann@example.com', email_verified_at: null, display_name: 'Ann' });
    // The user handle is random bytes, nothing personal; the authenticator got the same handle.
    expect(user.webauthn_user_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(phone.credentials[0]!.userHandle).toBe(user.webauthn_user_id);
    const stored = await db().selectFrom('passkey_credentials').selectAll().where('user_id', '=', userId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: phone.credentials[0]!.id, transports: 'hybrid,internal', backup_eligible: true, backup_state: true, sign_count: 0 });
    expect(stored[0]!.aaguid).toBe('00000000-0000-0000-0000-000000000000');

    // Sign-in before verification: 403 email_unverified, and a fresh link is mailed.
    expect((await mailsTo(db(), 'ann@example.com')).length).toBe(1);
    const early = await signIn(browser, phone);
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe('email_unverified');
    expect((await mailsTo(db(), 'ann@example.com')).length).toBe(2);

    // The mail job delivers the newest link as a real .eml file; parse the link out of it. Delivery blanks the body.
    const token = await deliverAndReadLink('ann@example.com', 'verify-email');
    expect(await db().selectFrom('email_verifications').select('id').where('token_hash', '=', sha256Hex(token)).executeTakeFirst()).toBeDefined();
    const verified = await browser.get(`/api/auth/email/verify?token=${token}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ email_verified: true });
    expect((await browser.get(`/api/auth/email/verify?token=${token}`)).json().error).toBe('link_used');

    // Sign in: cookie set with the right attributes, a session row holding only the hash.
    const signedIn = await signIn(browser, phone);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ user_id: userId, role: 'user' });
    const setCookie = String(signedIn.headers['set-cookie']);
    expect(setCookie).toMatch(/^service_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    const firstSession = sha256Hex(browser.cookie!);
    const sessionRow = await db().selectFrom('sessions').selectAll().where('id', '=', firstSession).executeTakeFirstOrThrow();
    expect(sessionRow).toMatchObject({ user_id: userId, credential_id: phone.credentials[0]!.id, ip_prefix: '127.0.0.0/24', user_agent: 'vitest-browser/1.0' });
    expect(sessionRow.expires_at).toBe('2026-03-02T20:00:00.000Z');
    const session = await browser.get('/api/auth/session');
    expect(session.json()).toEqual({
      user_id: userId,
      email: 'ann@example.com',
      display_name: 'Ann',
      role: 'user',
      user_handle: user.webauthn_user_id,
      expires_at: '2026-03-02T20:00:00.000Z',
      step_up_due: false,
    });
    // The user handle is the one the passkey holds (base64url), so the web app can name the account in WebAuthn signals.
    expect(Buffer.from(user.webauthn_user_id, 'base64url').length).toBe(32);
    expect((await db().selectFrom('passkey_credentials').select(['sign_count', 'last_used_at']).executeTakeFirstOrThrow())).toEqual({
      sign_count: 2,
      last_used_at: clock.now().toISOString(),
    });

    // Add a second device; its challenge is bound to this user.
    clock.advance(MINUTE);
    const addOptions = await browser.post('/api/auth/credentials/add/options');
    expect(addOptions.statusCode).toBe(200);
    expect(addOptions.json().excludeCredentials.map((c: { id: string }) => c.id)).toEqual([phone.credentials[0]!.id]);
    expect(addOptions.json().user.id).toBe(user.webauthn_user_id);
    const added = await browser.post('/api/auth/credentials/add/verify', laptop.createCredential(addOptions.json()));
    expect(added.statusCode).toBe(201);
    const laptopId = laptop.credentials[0]!.id;
    expect(added.json()).toMatchObject({ id: laptopId, label: null, backup_eligible: false, backup_state: false, current: false });

    // Sign in with the second device in another browser.
    const second = new HttpClient(app);
    const viaLaptop = await signIn(second, laptop);
    expect(viaLaptop.statusCode).toBe(200);
    const list = (await second.get('/api/auth/credentials')).json();
    expect(list.map((c: { id: string; current: boolean }) => [c.id, c.current])).toEqual([
      [phone.credentials[0]!.id, false],
      [laptopId, true],
    ]);

    // Rename; another user's or an unknown id is 404.
    const renamed = await second.request('PATCH', `/api/auth/credentials/${laptopId}`, { label: '  Work laptop  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().label).toBe('Work laptop');
    expect((await second.request('PATCH', '/api/auth/credentials/nope', { label: 'x' })).statusCode).toBe(404);

    // Delete the first passkey: its session is revoked (the phone browser is signed out) and kept as history.
    const deleted = await second.request('DELETE', `/api/auth/credentials/${phone.credentials[0]!.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await browser.get('/api/auth/session')).statusCode).toBe(401);
    expect(await db().selectFrom('sessions').select(['credential_id', 'revoked_at']).where('id', '=', firstSession).executeTakeFirst()).toEqual({
      credential_id: null,
      revoked_at: expect.any(String),
    });
    expect((await audit('session.revoke')).map((e) => e.target_id)).toContain(firstSession);
    // The last one cannot go.
    const last = await second.request('DELETE', `/api/auth/credentials/${laptopId}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe('last_credential');

    // Refresh within 24 h rolls the session 12 h from now.
    clock.advance(6 * HOUR);
    const refreshed = await second.post('/api/auth/session/refresh', {});
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json()).toEqual({ expires_at: new Date(clock.now().getTime() + 12 * HOUR).toISOString() });

    // After 24 h (kept alive by refreshes), refresh demands a step-up, with options for this user's passkeys.
    for (let i = 0; i < 2; i += 1) {
      clock.advance(6 * HOUR);
      // With `{}` or with no body at all.
      expect((await second.post('/api/auth/session/refresh', i === 0 ? {} : undefined)).statusCode).toBe(200);
    }
    clock.advance(6 * HOUR - 1);
    expect((await second.get('/api/auth/session')).json().step_up_due).toBe(false);
    clock.advance(1);
    expect((await second.get('/api/auth/session')).json().step_up_due).toBe(true);
    const due = await second.post('/api/auth/session/refresh', {});
    expect(due.statusCode).toBe(403);
    expect(due.json().error).toBe('step_up_required');
    expect(due.json().options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([laptopId]);
    const steppedUp = await second.post('/api/auth/session/refresh', laptop.getAssertion(due.json().options));
    expect(steppedUp.statusCode).toBe(200);
    expect((await second.get('/api/auth/session')).json().step_up_due).toBe(false);

    // The stand-alone step-up ceremony (what erasure will call).
    const stepOptions = await second.post('/api/auth/step-up/options');
    const stepped = await second.post('/api/auth/step-up/verify', laptop.getAssertion(stepOptions.json()));
    expect(stepped.statusCode).toBe(200);
    expect(stepped.json()).toEqual({ verified_at: clock.now().toISOString() });

    // `?optional=1` (the web app at start-up) answers the same view with a session, and 204 without one.
    const optional = await second.get('/api/auth/session?optional=1');
    expect(optional.statusCode).toBe(200);
    expect(optional.json()).toEqual((await second.get('/api/auth/session')).json());

    // Logout revokes the session and clears the cookie; logging out again is still 204.
    const cookieBefore = second.cookie!;
    expect((await second.post('/api/auth/logout')).statusCode).toBe(204);
    expect(second.cookie).toBeUndefined();
    second.cookie = cookieBefore;
    expect((await second.get('/api/auth/session')).statusCode).toBe(401);
    const signedOut = await second.get('/api/auth/session?optional=1');
    expect(signedOut.statusCode).toBe(204);
    expect(signedOut.body).toBe('');
    expect(signedOut.headers['cache-control']).toBe('no-store');
    expect((await second.post('/api/auth/logout')).statusCode).toBe(204);

    const actions = (await db().selectFrom('audit_entries').select('action').where('actor_user_id', '=', userId).execute()).map((e) => e.action);
    for (const action of ['user.register', 'user.email_verified', 'session.issue', 'credential.add', 'credential.rename', 'credential.delete', 'session.revoke', 'session.refresh']) {
      expect(actions).toContain(action);
    }
    const everything = JSON.stringify(await db().selectFrom('audit_entries').selectAll().execute());
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(cookieBefore);
  });

  it('expires a session after 12 hours without refresh', async () => {
    const { client: browser } = await signedInAccount(new HttpClient(app), db(), { email: 'bea@example.com' });
    clock.advance(12 * HOUR - 1);
    expect((await browser.get('/api/auth/session')).statusCode).toBe(200);
    clock.advance(1);
    expect((await browser.get('/api/auth/session')).statusCode).toBe(401);
  });

  it('recovers an account end to end: old passkeys and sessions dead, cooldown set, mails sent', async () => {
    const { client: old, authenticator: lost, userId } = await signedInAccount(new HttpClient(app), db(), { email: 'cleo@example.com' });
    const other = new HttpClient(app);
    expect((await signIn(other, lost)).statusCode).toBe(200);

    const stranger = new HttpClient(app);
    const started = await stranger.post('/api/auth/recovery/start', { email: 'Cleo@example.com' });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual({});
    // An unknown address gets the same answer and no mail.
    expect((await stranger.post('/api/auth/recovery/start', { email: 'nobody@example.com' })).statusCode).toBe(202);
    expect(await mailsTo(db(), 'nobody@example.com')).toEqual([]);

    const token = await latestLinkToken(db(), 'cleo@example.com', 'recover');
    const fresh = newAuthenticator({ algorithm: 'RS256' });
    const options = await stranger.post('/api/auth/recovery/complete', { token });
    expect(options.statusCode).toBe(200);
    expect(options.json().user.id).toBe(lost.credentials[0]!.userHandle);
    const completed = await stranger.post('/api/auth/recovery/complete', { token, credential: fresh.createCredential(options.json()) });
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toEqual({ user_id: userId, role: 'user' });
    expect(stranger.cookie).toBeDefined();

    // Old sessions and passkeys are dead; the new passkey signs in; the cooldown runs 72 h.
    expect((await old.get('/api/auth/session')).statusCode).toBe(401);
    expect((await other.get('/api/auth/session')).statusCode).toBe(401);
    expect((await signIn(new HttpClient(app), lost)).json().error).toBe('unknown_credential');
    expect((await signIn(new HttpClient(app), fresh)).statusCode).toBe(200);
    expect((await stranger.get('/api/auth/session')).statusCode).toBe(200);
    const credentials = await db().selectFrom('passkey_credentials').select('id').where('user_id', '=', userId).execute();
    expect(credentials).toEqual([{ id: fresh.credentials[0]!.id }]);
    const user = await db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user.trade_cooldown_until).toBe(new Date(clock.now().getTime() + 72 * HOUR).toISOString());
    const reset = await audit('user.credentials_reset');
    expect(reset.at(-1)).toMatchObject({ actor_user_id: userId, target_id: userId });
    expect((await audit('recovery.start')).at(-1)).toMatchObject({ target_id: userId, actor_user_id: null });
    const subjects = (await mailsTo(db(), 'cleo@example.com')).map((m) => m.subject);
    expect(subjects).toContain('Recover access to your tradelab account');
    expect(subjects).toContain('Your tradelab passkeys were reset');

    // The link was single use.
    expect((await stranger.post('/api/auth/recovery/complete', { token })).json().error).toBe('link_used');
  });

  it('expires email and recovery links after 15 minutes', async () => {
    const browser = new HttpClient(app);
    expect((await register(browser, newAuthenticator(), 'dan@example.com')).statusCode).toBe(201);
    const token = await latestLinkToken(db(), 'dan@example.com', 'verify-email');
    clock.advance(15 * MINUTE);
    const late = await browser.get(`/api/auth/email/verify?token=${token}`);
    expect(late.statusCode).toBe(410);
    expect(late.json().error).toBe('link_expired');
    expect((await browser.get(`/api/auth/email/verify?token=${'A'.repeat(43)}`)).statusCode).toBe(404);
  });

  it('answers a taken address exactly like a new one, stores nothing, and mails its owner', async () => {
    await signedInAccount(new HttpClient(app), db(), { email: 'eve@example.com' });
    const usersBefore = await db().selectFrom('users').select('id').execute();
    const credsBefore = await db().selectFrom('passkey_credentials').select('id').execute();
    const browser = new HttpClient(app);
    const again = await register(browser, newAuthenticator(), 'eve@example.com', 'Mallory');
    expect(again.statusCode).toBe(201);
    expect(Object.keys(again.json()).sort()).toEqual(['needs_email_verification', 'user_id']);
    expect(await db().selectFrom('users').select('id').execute()).toEqual(usersBefore);
    expect(await db().selectFrom('passkey_credentials').select('id').execute()).toEqual(credsBefore);
    expect((await mailsTo(db(), 'eve@example.com')).at(-1)!.subject).toBe('Someone tried to sign up to tradelab with your address');
  });

  it('lets the real owner take over an abandoned, never-verified registration', async () => {
    const squatter = newAuthenticator();
    const first = await register(new HttpClient(app), squatter, 'fay@example.com', 'Squatter');
    const owner = newAuthenticator();
    const second = await register(new HttpClient(app), owner, 'fay@example.com', 'Fay');
    expect(second.statusCode).toBe(201);
    const users = await db().selectFrom('users').selectAll().where('email', '=', 'fay@example.com').execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ id: second.json().user_id, display_name: 'Fay' });
    expect(users[0]!.id).not.toBe(first.json().user_id);
    expect(await db().selectFrom('passkey_credentials').select('id').where('id', '=', squatter.credentials[0]!.id).executeTakeFirst()).toBeUndefined();
    // Only the newest link verifies (the squatter's went with their account).
    const token = await latestLinkToken(db(), 'fay@example.com', 'verify-email');
    expect((await new HttpClient(app).get(`/api/auth/email/verify?token=${token}`)).statusCode).toBe(200);
    expect((await signIn(new HttpClient(app), owner)).statusCode).toBe(200);
    expect((await signIn(new HttpClient(app), squatter)).json().error).toBe('unknown_credential');
  });

  /** Runs the mail job (file transport) for the newest mail to `to` and reads the link from the written .eml. */
  async function deliverAndReadLink(to: string, page: string): Promise<string> {
    const mail = await db().selectFrom('mail_outbox').select('id').where('to_address', '=', to).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const job = await db().selectFrom('jobs').select(['id', 'payload']).where('payload', 'like', `%${mail.id}%`).executeTakeFirstOrThrow();
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-auth-mail-'));
    const transport = createMailTransport({ smtpUrl: null, mailDir, logger: app.log });
    await sendMailJob({ db: db(), clock, transport, from: 'tradelab <no-reply@localhost>', mintLinkToken: mintEmailLinkToken })({
      id: job.id,
      kind: SEND_MAIL_JOB,
      payload: JSON.parse(job.payload),
      attempt: 1,
      signal: new AbortController().signal,
    });
    transport.close();
    const parsed = await simpleParser(fs.readFileSync(path.join(mailDir, `${mail.id}.eml`)));
    fs.rmSync(mailDir, { recursive: true, force: true });
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe(to);
    const match = new RegExp(`http://localhost:3000/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(parsed.text ?? '');
    expect(match).not.toBeNull();
    const blanked = await db().selectFrom('mail_outbox').select(['text_body', 'html_body', 'sent_at']).where('id', '=', mail.id).executeTakeFirstOrThrow();
    expect(blanked).toEqual({ text_body: '', html_body: '', sent_at: clock.now().toISOString() });
    return match![1]!;
  }
});
