import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import {
  loginOptions,
  newAuthenticator,
  registerVerified,
  registrationOptions,
  signedInAccount,
  signIn,
  uniqueEmail,
} from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { countRows, expectNoSessionIssued, expectRefusal, snapshot } from './refusals-kit.js';

/**
 * WebAuthn ceremony refusals over HTTP: each answers a clear 4xx with its error code, issues no session
 * cookie, and changes no row of users, passkey_credentials, sessions, email_verifications, nor the
 * audit log or the mail outbox (the spent challenge row is the one intended change; a counter
 * regression also writes its `credential.clone_suspected` audit row).
 */
describeEachDialect('auth refusals: ceremonies', (database) => {
  let app: App;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function refusedWithoutChange(
    act: () => Promise<LightMyRequestResponse>,
    status: number,
    error: string,
    options: { auditAdded?: number } = {},
  ): Promise<LightMyRequestResponse> {
    const before = await snapshot(db());
    const auditBefore = await countRows(db(), 'audit_entries');
    const mailBefore = await countRows(db(), 'mail_outbox');
    const response = await act();
    expectRefusal(response, status, error);
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(auditBefore + (options.auditAdded ?? 0));
    expect(await countRows(db(), 'mail_outbox')).toBe(mailBefore);
    return response;
  }

  // --- challenges ---------------------------------------------------------------------------

  it('a reused sign-in challenge (the same assertion sent twice) is refused', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const options = await loginOptions(client);
    const assertion = authenticator.getAssertion(options);
    expect((await client.post('login/verify', assertion)).statusCode).toBe(200);
    await refusedWithoutChange(() => new HttpClient(app).post('login/verify', assertion), 400, 'challenge_invalid');
  });

  it('a registration challenge is spent by a failed attempt: the corrected retry is refused', async () => {
    const client = new HttpClient(app);
    const authenticator = newAuthenticator();
    const options = await registrationOptions(client, uniqueEmail());
    await refusedWithoutChange(
      () => client.post('register/verify', authenticator.createCredential(options, { origin: 'https://evil.example' })),
      400,
      'registration_failed',
    );
    await refusedWithoutChange(() => client.post('register/verify', authenticator.createCredential(options)), 400, 'challenge_invalid');
  });

  it('a challenge older than 60 s is refused; at 59 s it is still good', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const fresh = await loginOptions(client);
    clock.advance(59_000);
    expect((await client.post('login/verify', authenticator.getAssertion(fresh))).statusCode).toBe(200);

    const stale = await loginOptions(client);
    clock.advance(61_000);
    await refusedWithoutChange(() => client.post('login/verify', authenticator.getAssertion(stale)), 400, 'challenge_invalid');
  });

  it('a registration challenge older than 60 s is refused', async () => {
    const client = new HttpClient(app);
    const options = await registrationOptions(client, uniqueEmail());
    clock.advance(61_000);
    await refusedWithoutChange(() => client.post('register/verify', newAuthenticator().createCredential(options)), 400, 'challenge_invalid');
  });

  it('a challenge of another ceremony is refused: registration challenge at sign-in, sign-in challenge at registration', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const creation = await registrationOptions(client, uniqueEmail());
    await refusedWithoutChange(
      () => client.post('login/verify', authenticator.getAssertion({ challenge: creation.challenge, rpId: creation.rp.id })),
      400,
      'challenge_invalid',
    );
    const request = await loginOptions(client);
    await refusedWithoutChange(
      () => client.post('register/verify', newAuthenticator().createCredential({ ...creation, challenge: request.challenge })),
      400,
      'challenge_invalid',
    );
  });

  it('a step-up challenge issued to one user is refused for another user', async () => {
    const alice = new HttpClient(app);
    await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    const bobAccount = await signedInAccount(bob, db());
    const aliceOptions = (await alice.post('step-up/options')).json();
    await refusedWithoutChange(
      () => bob.post('step-up/verify', bobAccount.authenticator.getAssertion({ ...aliceOptions, allowCredentials: [] })),
      400,
      'challenge_invalid',
    );
  });

  it('an add-device challenge issued to one user is refused for another user', async () => {
    const alice = new HttpClient(app);
    await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    await signedInAccount(bob, db());
    const aliceOptions = (await alice.post('credentials/add/options')).json();
    await refusedWithoutChange(
      () => bob.post('credentials/add/verify', newAuthenticator().createCredential(aliceOptions)),
      400,
      'challenge_invalid',
    );
  });

  it('a sign-in challenge cannot finish a step-up (another ceremony, even for the right user)', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const options = await loginOptions(client);
    await refusedWithoutChange(() => client.post('step-up/verify', authenticator.getAssertion(options)), 400, 'challenge_invalid');
  });

  // --- origin, RP ID, flags, signature, counter -----------------------------------------------

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['UV flag not set', { flags: { uv: false } }],
    ['UP flag not set', { flags: { up: false } }],
    ['BS without BE', { flags: { be: false, bs: true } }],
    ['a bad signature', { corruptSignature: true }],
    ['clientData type webauthn.create', { type: 'webauthn.create' }],
    ['a cross-origin iframe (crossOrigin: true)', { crossOrigin: true }],
    ['a cross-origin iframe with topOrigin', { crossOrigin: true, clientData: { topOrigin: 'https://evil.example' } }],
  ] as const)('sign-in with %s is refused', async (_name, overrides) => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const stranger = new HttpClient(app);
    await refusedWithoutChange(() => signIn(stranger, authenticator, overrides), 401, 'authentication_failed');
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['UV flag not set', { flags: { uv: false } }],
    ['BS without BE', { flags: { be: false, bs: true } }],
    ['an algorithm we did not offer', { coseAlgorithm: -35 }],
    ['clientData type webauthn.get', { type: 'webauthn.get' }],
    ['a cross-origin iframe (crossOrigin: true, topOrigin)', { crossOrigin: true, clientData: { topOrigin: 'https://evil.example' } }],
    ['a credential id over 1023 bytes', { credentialIdLength: 1024 }],
  ] as const)('registration with %s is refused', async (_name, overrides) => {
    const client = new HttpClient(app);
    const options = await registrationOptions(client, uniqueEmail());
    await refusedWithoutChange(
      () => client.post('register/verify', newAuthenticator().createCredential(options, overrides)),
      400,
      'registration_failed',
    );
  });

  it('registering a credential id that is already registered (to another account) is refused', async () => {
    const client = new HttpClient(app);
    const { credentialId } = await signedInAccount(client, db());
    const options = await registrationOptions(client, uniqueEmail());
    await refusedWithoutChange(
      () => client.post('register/verify', newAuthenticator().createCredential(options, { credentialId })),
      400,
      'registration_failed',
    );
  });

  it('a reused credential id is refused alike for a taken address, so the answer does not reveal that it is taken', async () => {
    const client = new HttpClient(app);
    const { credentialId, email } = await signedInAccount(client, db());
    const options = await registrationOptions(new HttpClient(app), email);
    await refusedWithoutChange(
      () => client.post('register/verify', newAuthenticator().createCredential(options, { credentialId })),
      400,
      'registration_failed',
    );
  });

  it('a counter that does not grow is refused and audited as a possible clone', async () => {
    const client = new HttpClient(app);
    const { authenticator, credentialId } = await signedInAccount(client, db());
    const stored = authenticator.credential(credentialId).counter;
    expect(stored).toBeGreaterThan(0);
    await refusedWithoutChange(() => signIn(new HttpClient(app), authenticator, { signCount: stored }), 401, 'authentication_failed', {
      auditAdded: 1,
    });
    const audit = await db().selectFrom('audit_entries').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'credential.clone_suspected', target_id: credentialId });
    await refusedWithoutChange(() => signIn(new HttpClient(app), authenticator, { signCount: stored - 1 }), 401, 'authentication_failed', {
      auditAdded: 1,
    });
  });

  // --- which credential, which account --------------------------------------------------------

  it('an unknown credential is refused with unknown_credential', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    const stranger = newAuthenticator();
    stranger.createCredential(await registrationOptions(client, uniqueEmail()));
    await refusedWithoutChange(() => signIn(new HttpClient(app), stranger), 401, 'unknown_credential');
  });

  it('a credential of a soft-deleted user is refused', async () => {
    const client = new HttpClient(app);
    const { authenticator, userId } = await signedInAccount(client, db());
    await db().updateTable('users').set({ deleted_at: clock.now().toISOString() }).where('id', '=', userId).execute();
    await refusedWithoutChange(() => signIn(new HttpClient(app), authenticator), 401, 'authentication_failed');
  });

  it('registering the address of a soft-deleted account answers like any registration and stores nothing', async () => {
    const client = new HttpClient(app);
    const { email, userId } = await signedInAccount(client, db());
    await db().updateTable('users').set({ deleted_at: clock.now().toISOString() }).where('id', '=', userId).execute();
    const options = await registrationOptions(client, email);
    const before = await snapshot(db());
    const mail = await countRows(db(), 'mail_outbox');
    const response = await client.post('register/verify', newAuthenticator().createCredential(options));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().user_id).not.toBe(userId);
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'mail_outbox')).toBe(mail);
    expectNoSessionIssued(response);
  });

  it('a discoverable assertion without userHandle is refused', async () => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    await refusedWithoutChange(() => signIn(new HttpClient(app), authenticator, { userHandle: null }), 401, 'authentication_failed');
  });

  it("a discoverable assertion naming another account's user handle is refused", async () => {
    const alice = new HttpClient(app);
    const aliceAccount = await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    const bobAccount = await signedInAccount(bob, db());
    await refusedWithoutChange(
      () => signIn(new HttpClient(app), bobAccount.authenticator, { userHandle: aliceAccount.userHandle }),
      401,
      'authentication_failed',
    );
  });

  it("a step-up with another user's passkey is refused, even on the right challenge", async () => {
    const alice = new HttpClient(app);
    await signedInAccount(alice, db());
    const bob = newAuthenticator();
    await registerVerified(new HttpClient(app), db(), bob);
    const options = (await alice.post('step-up/options')).json();
    await refusedWithoutChange(
      () => alice.post('step-up/verify', bob.getAssertion({ ...options, allowCredentials: [] })),
      401,
      'authentication_failed',
    );
  });
});
