import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/ids.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { mailsTo, newAuthenticator, register, signedInAccount, signIn } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('sign-in rules', (database) => {
  const clock = new ManualClock('2026-03-04T09:00:00.000Z');
  let app: App;
  const db = () => database().handle.db;
  const audit = (action: string) => db().selectFrom('audit_entries').selectAll().where('action', '=', action).execute();

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => app.close());

  it('refuses a correctly signed counter regression, audits credential.clone_suspected, and keeps the stored counter', async () => {
    const { authenticator } = await signedInAccount(new HttpClient(app), db(), { email: 'lea@example.com' });
    const id = authenticator.credentials[0]!.id;
    const before = await db().selectFrom('passkey_credentials').select('sign_count').where('id', '=', id).executeTakeFirstOrThrow();
    expect(before.sign_count).toBe(1);
    const options = await new HttpClient(app).post('/api/auth/login/options');
    const replayed = await new HttpClient(app).post('/api/auth/login/verify', authenticator.getAssertion(options.json(), { signCount: 1 }));
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe('authentication_failed');
    expect(replayed.cookies).toEqual([]);
    expect((await audit('credential.clone_suspected')).map((e) => e.target_id)).toEqual([id]);
    expect((await db().selectFrom('passkey_credentials').select('sign_count').where('id', '=', id).executeTakeFirstOrThrow()).sign_count).toBe(1);
    // An unsigned (corrupted) regression is refused without an audit row: only real signatures count as clones.
    const forged = await new HttpClient(app).post(
      '/api/auth/login/verify',
      authenticator.getAssertion((await new HttpClient(app).post('/api/auth/login/options')).json(), { signCount: 0, corruptSignature: true }),
    );
    expect(forged.statusCode).toBe(401);
    expect(await audit('credential.clone_suspected')).toHaveLength(1);
  });

  it('accepts counters that stay zero (synced passkeys) and records backup state changes; a change of eligibility is audited', async () => {
    const synced = newAuthenticator({ algorithm: 'EdDSA', signCount: 'zero' });
    const { client: browser } = await signedInAccount(new HttpClient(app), db(), { email: 'max@example.com', authenticator: synced });
    const id = synced.credentials[0]!.id;
    expect((await signIn(browser, synced)).statusCode).toBe(200);
    const options = (await browser.post('/api/auth/login/options')).json();
    const changed = await browser.post('/api/auth/login/verify', synced.getAssertion(options, { flags: { be: false, bs: false } }));
    expect(changed.statusCode).toBe(200);
    const row = await db().selectFrom('passkey_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sign_count: 0, backup_eligible: false, backup_state: false });
    expect((await audit('credential.backup_eligibility_changed')).map((e) => e.target_id)).toEqual([id]);
  });

  it('accepts a challenge until 60 s have passed, and not after; either way it is spent', async () => {
    const { authenticator } = await signedInAccount(new HttpClient(app), db(), { email: 'ida@example.com' });
    const browser = new HttpClient(app);
    const options = (await browser.post('/api/auth/login/options')).json();
    clock.advance(60_000 - 1);
    const inTime = await browser.post('/api/auth/login/verify', authenticator.getAssertion(options));
    expect(inTime.statusCode).toBe(200);
    expect(inTime.headers['cache-control']).toBe('no-store');
    const late = (await browser.post('/api/auth/login/options')).json();
    clock.advance(60_000);
    expect((await browser.post('/api/auth/login/verify', authenticator.getAssertion(late))).json().error).toBe('challenge_invalid');
    expect(await db().selectFrom('webauthn_challenges').select('id').where('id', 'in', [sha256Hex(options.challenge), sha256Hex(late.challenge)]).execute()).toEqual([]);
  });

  it('mails at most 3 fresh verification links an hour to an account signing in unverified', async () => {
    const authenticator = newAuthenticator();
    const browser = new HttpClient(app);
    await register(browser, authenticator, 'ned@example.com');
    for (let i = 0; i < 5; i += 1) expect((await signIn(browser, authenticator)).json().error).toBe('email_unverified');
    expect(await mailsTo(db(), 'ned@example.com')).toHaveLength(1 + 3);
    clock.advance(HOUR);
    await signIn(browser, authenticator);
    expect(await mailsTo(db(), 'ned@example.com')).toHaveLength(1 + 4);
  });

  it('limits each ceremony endpoint to 20 a minute per client network (429 with Retry-After)', async () => {
    clock.set('2026-03-04T12:00:00.000Z');
    const browser = new HttpClient(app);
    for (let i = 0; i < 20; i += 1) expect((await browser.post('/api/auth/login/options')).statusCode).toBe(200);
    const limited = await browser.post('/api/auth/login/options');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    clock.advance(MINUTE);
    expect((await browser.post('/api/auth/login/options')).statusCode).toBe(200);
  });

  it('limits session/refresh to 20 a minute per account, so a step-up that is due cannot be used to pile up challenges', async () => {
    clock.set('2026-03-04T13:00:00.000Z');
    const { client: browser } = await signedInAccount(new HttpClient(app), db(), { email: 'rae@example.com' });
    const neighbour = await signedInAccount(new HttpClient(app, { address: browser.address }), db(), { email: 'rob@example.com' });
    for (let i = 0; i < 20; i += 1) expect((await browser.post('/api/auth/session/refresh')).statusCode).toBe(200);
    const limited = await browser.post('/api/auth/session/refresh');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    // Counted per account: another account on the same network is not held back.
    expect((await neighbour.client.post('/api/auth/session/refresh')).statusCode).toBe(200);
  });

  it('answers recovery/start with 202 past its limits but sends nothing more (3 an hour per address)', async () => {
    await signedInAccount(new HttpClient(app), db(), { email: 'ora@example.com' });
    const browser = new HttpClient(app);
    for (let i = 0; i < 5; i += 1) expect((await browser.post('/api/auth/recovery/start', { email: 'ora@example.com' })).statusCode).toBe(202);
    const recoveryMails = (await mailsTo(db(), 'ora@example.com')).filter((m) => m.subject.startsWith('Recover'));
    expect(recoveryMails).toHaveLength(3);
    expect(await audit('recovery.start')).toHaveLength(3);
  });

  it('mails nothing for an unverified address on recovery/start', async () => {
    await register(new HttpClient(app), newAuthenticator(), 'pia@example.com');
    expect((await new HttpClient(app).post('/api/auth/recovery/start', { email: 'pia@example.com' })).statusCode).toBe(202);
    expect((await mailsTo(db(), 'pia@example.com')).filter((m) => m.subject.startsWith('Recover'))).toEqual([]);
  });

  it('refuses sign-in, refresh and recovery for a soft-deleted account', async () => {
    const { client: browser, authenticator, userId } = await signedInAccount(new HttpClient(app), db(), { email: 'quin@example.com' });
    await db().updateTable('users').set({ deleted_at: clock.now().toISOString() }).where('id', '=', userId).execute();
    expect((await browser.get('/api/auth/session')).statusCode).toBe(401);
    expect((await browser.post('/api/auth/session/refresh', {})).statusCode).toBe(401);
    expect((await signIn(new HttpClient(app), authenticator)).json().error).toBe('authentication_failed');
    await new HttpClient(app).post('/api/auth/recovery/start', { email: 'quin@example.com' });
    expect((await mailsTo(db(), 'quin@example.com')).filter((m) => m.subject.startsWith('Recover'))).toEqual([]);
    // Registering the address again stores nothing.
    expect((await register(new HttpClient(app), newAuthenticator(), 'quin@example.com')).statusCode).toBe(201);
    expect(await db().selectFrom('users').select('id').where('email', '=', 'quin@example.com').execute()).toEqual([{ id: userId }]);
  });
});
