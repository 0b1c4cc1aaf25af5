import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { newAuthenticator, signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('credentials belong to their owner', (database) => {
  const clock = new ManualClock('2026-03-07T09:00:00.000Z');
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => app.close());

  it("cannot list, rename or delete another user's passkey (404, nothing changed)", async () => {
    const ann = await signedInAccount(new HttpClient(app), db(), { email: 'yan@example.com' });
    const bob = await signedInAccount(new HttpClient(app), db(), { email: 'zed@example.com', authenticator: newAuthenticator({ algorithm: 'EdDSA' }) });
    const bobsId = bob.authenticator.credentials[0]!.id;
    // Bob adds a second passkey so that "last credential" cannot be what refuses Ann.
    const addOptions = await bob.client.post('/api/auth/credentials/add/options');
    expect((await bob.client.post('/api/auth/credentials/add/verify', newAuthenticator().createCredential(addOptions.json()))).statusCode).toBe(201);
    const before = await db().selectFrom('passkey_credentials').selectAll().where('user_id', '=', bob.userId).orderBy('id').execute();

    const list = (await ann.client.get('/api/auth/credentials')).json();
    expect(list.map((c: { id: string }) => c.id)).toEqual([ann.authenticator.credentials[0]!.id]);
    const renamed = await ann.client.request('PATCH', `/api/auth/credentials/${bobsId}`, { label: 'mine now' });
    expect(renamed.statusCode).toBe(404);
    const deleted = await ann.client.request('DELETE', `/api/auth/credentials/${bobsId}`);
    expect(deleted.statusCode).toBe(404);
    expect(await db().selectFrom('passkey_credentials').selectAll().where('user_id', '=', bob.userId).orderBy('id').execute()).toEqual(before);
    expect((await bob.client.get('/api/auth/session')).statusCode).toBe(200);
  });

  it('refuses a label that is empty after trimming or longer than 64 characters', async () => {
    const { client: browser, authenticator } = await signedInAccount(new HttpClient(app), db(), { email: 'amy@example.com' });
    const id = authenticator.credentials[0]!.id;
    for (const label of ['   ', 'x'.repeat(65)]) {
      expect((await browser.request('PATCH', `/api/auth/credentials/${id}`, { label })).statusCode).toBe(400);
    }
    expect((await browser.request('PATCH', `/api/auth/credentials/${id}`, { label: 'x'.repeat(64) })).statusCode).toBe(200);
  });
});
