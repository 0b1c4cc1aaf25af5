import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import type { SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { newAuthenticator, signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { countRows, expectRefusal, snapshot } from './refusals-kit.js';

/**
 * Refusals around one's own passkeys: another account's passkeys can be neither renamed nor deleted,
 * the last one cannot be deleted (not even by two racing requests), a passkey already registered
 * cannot be added again, and a step-up or refresh cannot be done with another account's passkey.
 */
describeEachDialect('auth refusals: credentials and step-up ownership', (database) => {
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
    expectRefusal(await act(), status, error);
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(audit);
  }

  async function addDevice(client: HttpClient, authenticator: SoftwareAuthenticator = newAuthenticator()): Promise<string> {
    const options = (await client.post('credentials/add/options')).json();
    const added = await client.post('credentials/add/verify', authenticator.createCredential(options));
    expect(added.statusCode, added.body).toBe(201);
    return added.json().id;
  }

  it("another account's passkey can be neither renamed nor deleted (404 not_found)", async () => {
    const alice = new HttpClient(app);
    const aliceAccount = await signedInAccount(alice, db());
    await addDevice(alice);
    const bob = new HttpClient(app);
    await signedInAccount(bob, db());
    await addDevice(bob);
    const path = `credentials/${aliceAccount.credentialId}`;
    await refusedWithoutChange(() => bob.request('PATCH', path, { label: 'mine now' }), 404, 'not_found');
    await refusedWithoutChange(() => bob.request('DELETE', path), 404, 'not_found');
    await refusedWithoutChange(() => bob.request('DELETE', 'credentials/AAAA'), 404, 'not_found');
  });

  it('the last passkey cannot be deleted (409 last_credential)', async () => {
    const client = new HttpClient(app);
    const { credentialId } = await signedInAccount(client, db());
    await refusedWithoutChange(() => client.request('DELETE', `credentials/${credentialId}`), 409, 'last_credential');
  });

  it('two racing deletes of the last two passkeys leave one (10 rounds)', async () => {
    for (let round = 0; round < 10; round += 1) {
      const client = new HttpClient(app);
      const { credentialId, userId } = await signedInAccount(client, db());
      const second = await addDevice(client);
      const answers = await Promise.all([
        client.request('DELETE', `credentials/${credentialId}`),
        client.request('DELETE', `credentials/${second}`),
      ]);
      // The loser sees 409, or 401 when the winner's delete took its session with the passkey first.
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(204);
      expect([401, 409]).toContain(codes[1]);
      const left = await db().selectFrom('passkey_credentials').select('id').where('user_id', '=', userId).execute();
      expect(left).toHaveLength(1);
    }
  });

  it('labels that are empty, blank or over 64 characters are 400 and rename nothing', async () => {
    const client = new HttpClient(app);
    const { credentialId } = await signedInAccount(client, db());
    for (const label of ['', '   ', 'x'.repeat(65)]) {
      const before = await snapshot(db());
      const response = await client.request('PATCH', `credentials/${credentialId}`, { label });
      expect(response.statusCode, JSON.stringify(label)).toBe(400);
      expect(await snapshot(db())).toEqual(before);
    }
  });

  it('adding a passkey already registered (to oneself or to another account) is refused', async () => {
    const alice = new HttpClient(app);
    const aliceAccount = await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    const bobAccount = await signedInAccount(bob, db());
    for (const credentialId of [aliceAccount.credentialId, bobAccount.credentialId]) {
      const options = (await alice.post('credentials/add/options')).json();
      const attestation = newAuthenticator().createCredential(options, { credentialId });
      await refusedWithoutChange(() => alice.post('credentials/add/verify', attestation), 400, 'registration_failed');
    }
  });

  it('adding a passkey without a session is 401', async () => {
    const client = new HttpClient(app);
    await signedInAccount(client, db());
    const options = (await client.post('credentials/add/options')).json();
    const stranger = new HttpClient(app);
    await refusedWithoutChange(() => stranger.post('credentials/add/verify', newAuthenticator().createCredential(options)), 401, 'unauthenticated');
  });

  it("a step-up naming another account's user handle is refused", async () => {
    const alice = new HttpClient(app);
    const aliceAccount = await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    const bobAccount = await signedInAccount(bob, db());
    const options = (await alice.post('step-up/options')).json();
    await refusedWithoutChange(
      () => alice.post('step-up/verify', aliceAccount.authenticator.getAssertion(options, { userHandle: bobAccount.userHandle })),
      401,
      'authentication_failed',
    );
  });

  it("a due refresh cannot be stepped up with another account's passkey", async () => {
    const alice = new HttpClient(app);
    await signedInAccount(alice, db());
    const bob = new HttpClient(app);
    const bobAccount = await signedInAccount(bob, db());
    for (let i = 0; i < 2; i += 1) {
      clock.advance(11 * HOUR);
      expect((await alice.post('session/refresh', {})).statusCode).toBe(200);
    }
    clock.advance(2 * HOUR);
    const due = await alice.post('session/refresh', {});
    expect(due.statusCode).toBe(403);
    const foreign = bobAccount.authenticator.getAssertion({ ...due.json().options, allowCredentials: [] });
    await refusedWithoutChange(() => alice.post('session/refresh', foreign), 401, 'authentication_failed');
  });
});
