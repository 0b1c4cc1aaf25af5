import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { findCredential, findCredentialWithOwner } from '../../src/auth/credentials.repo.js';
import { findUserById } from '../../src/auth/users.repo.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('findCredentialWithOwner', (database) => {
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle);
  });
  afterAll(async () => app.close());

  it('reads a passkey and its owner in one statement, as the two single reads give them', async () => {
    const { authenticator } = await signedInAccount(new HttpClient(app), db(), { email: 'ines@example.com' });
    const id = authenticator.credentials[0]!.id;
    const credential = await findCredential(db(), id);
    const found = await findCredentialWithOwner(db(), id);
    expect(found).toEqual({ credential, user: await findUserById(db(), credential!.user_id) });
    expect(typeof found!.credential.backup_eligible).toBe('boolean');
    expect(found!.user.email).toBe('ines@example.com');
  });

  it('finds nothing for an unknown passkey', async () => {
    expect(await findCredentialWithOwner(db(), 'no-such-credential')).toBeUndefined();
  });
});
