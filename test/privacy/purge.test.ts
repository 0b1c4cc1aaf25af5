import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { FEATURE_PURGES } from '../../src/job-runner.js';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { listLiveColumns } from '../../src/platform/db/database.js';
import { purgeExpiredRecords } from '../../src/platform/retention/housekeeping.job.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, newAuthenticator, signedInAccount, signIn, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { createStrategy, FULL_STRATEGY } from '../strategies/library-kit.js';
import { bar, placeOrder, seedBars } from '../trading/trading-kit.js';
import { GDPR, rowsNaming, runExportJobs, stepUpAssertion } from './privacy-kit.js';

describeEachDialect('data rights: the purge 30 days after erasure', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await seedBars(db(), clock, 'PPP', [bar('2026-05-29', 30)]);
  });
  afterAll(async () => app?.close());

  /** An account with a row in every table a person can fill: library, orders, positions, an export, a removed passkey, a pending address. */
  async function busyAccount(name: string): Promise<SignedInAccount & { identifiers: string[] }> {
    const account = await signedInAccount(new HttpClient(app), db(), { displayName: name });
    await createStrategy(account, FULL_STRATEGY);
    expect((await placeOrder(account.client, { symbol: 'PPP', side: 'buy', qty: 3 })).statusCode).toBe(201);
    expect((await placeOrder(account.client, { symbol: 'PPP', side: 'buy', qty: 1, order_type: 'limit', limit_price: 5 })).statusCode).toBe(201);
    expect((await account.client.post(`${GDPR}/export`)).statusCode).toBe(202);
    await runExportJobs(app);
    // A second passkey, used on a laptop, then removed.
    const laptopKey = newAuthenticator();
    const added = await account.client.post('credentials/add/verify', laptopKey.createCredential((await account.client.post('credentials/add/options')).json()));
    expect(added.statusCode, added.body).toBe(201);
    expect((await signIn(new HttpClient(app), laptopKey)).statusCode).toBe(200);
    expect((await account.client.request('DELETE', `credentials/${added.json().id}`)).statusCode).toBe(204);
    const change = await account.client.request('PATCH', `${GDPR}/profile`, { email: `new-${account.email}`, credential: await stepUpAssertion(account) });
    expect(change.statusCode, change.body).toBe(200);
    await latestLinkToken(db(), `new-${account.email}`);
    return { ...account, identifiers: [account.userId, account.email, `new-${account.email}`, name, account.userHandle, account.credentialId, added.json().id] };
  }

  it('keeps the erased account for 30 days, then leaves nothing of the person but keyed hashes in the audit log', async () => {
    const ann = await busyAccount('Annabelle Purgeworthy');
    const bob = await busyAccount('Bob Staysaround');
    const annAudit = await db().selectFrom('audit_entries').select('id').where('actor_user_id', '=', ann.userId).execute();
    expect((await ann.client.post(`${GDPR}/erase`, { credential: await stepUpAssertion(ann) })).statusCode).toBe(202);
    const live = await listLiveColumns(database().handle);
    expect(new Set(live.map((c) => c.table)).size).toBeGreaterThan(15);
    // Bob's rows in the tables with no time limit of their own (links, mail and sessions age out by housekeeping).
    const lasting = live.filter((c) => ['users', 'passkey_credentials', 'strategies', 'orders', 'paper_accounts', 'paper_positions', 'audit_entries'].includes(c.table));
    const bobBefore = await rowsNaming(db(), lasting, bob.identifiers);

    // One minute short of 30 days: nothing purged.
    clock.advance(30 * DAY - MINUTE);
    expect((await purgeExpiredRecords(db(), clock, FEATURE_PURGES)).erased_users).toBe(0);
    expect(await db().selectFrom('users').select('id').where('id', '=', ann.userId).execute()).toHaveLength(1);

    clock.advance(MINUTE);
    expect((await purgeExpiredRecords(db(), clock, FEATURE_PURGES)).erased_users).toBe(1);

    // Walk every table and column of the live schema: no identifier of Ann anywhere.
    expect(await rowsNaming(db(), live, ann.identifiers)).toEqual([]);
    // Her audit rows stay (2 years), the actor as HMAC-SHA-256 with the stored key.
    const key = (await db().selectFrom('hash_keys').select('key_bytes').where('name', '=', 'audit_actor').executeTakeFirstOrThrow()).key_bytes;
    expect(key.byteLength).toBe(32);
    const hash = createHmac('sha256', key).update(ann.userId).digest('hex');
    const hashed = await db().selectFrom('audit_entries').selectAll().where('actor_hash', '=', hash).execute();
    expect(hashed.map((row) => row.id).sort()).toEqual(expect.arrayContaining(annAudit.map((row) => row.id)));
    expect(hashed.every((row) => row.actor_user_id === null)).toBe(true);
    expect(hashed.map((row) => row.action)).toEqual(expect.arrayContaining(['user.register', 'session.issue', 'dsr.export', 'user.erase', 'credential.delete']));
    expect(await db().selectFrom('audit_entries').select('id').where('target_id', '=', hash).execute()).not.toEqual([]);

    // Bob is untouched; a second run finds nothing to do.
    expect(await rowsNaming(db(), lasting, bob.identifiers)).toEqual(bobBefore);
    const again = await purgeExpiredRecords(db(), clock, FEATURE_PURGES);
    expect(again.erased_users).toBe(0);

    // Audit rows themselves go after 2 years, by the platform's housekeeping.
    clock.advance(730 * DAY);
    await purgeExpiredRecords(db(), clock, FEATURE_PURGES);
    expect(await db().selectFrom('audit_entries').select('id').where('actor_hash', '=', hash).execute()).toEqual([]);
  });

  it('keeps sessions ended by removing their passkey or by a recovery, revoked rather than deleted', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const laptopKey = newAuthenticator();
    const added = (await ann.client.post('credentials/add/verify', laptopKey.createCredential((await ann.client.post('credentials/add/options')).json()))).json();
    const laptop = new HttpClient(app);
    expect((await signIn(laptop, laptopKey)).statusCode).toBe(200);
    const laptopSession = await db().selectFrom('sessions').select('id').where('credential_id', '=', added.id).executeTakeFirstOrThrow();
    clock.advance(MINUTE);
    expect((await ann.client.request('DELETE', `credentials/${added.id}`)).statusCode).toBe(204);
    expect(await db().selectFrom('sessions').select(['credential_id', 'revoked_at']).where('id', '=', laptopSession.id).executeTakeFirst()).toEqual({
      credential_id: null,
      revoked_at: clock.now().toISOString(),
    });
    expect((await laptop.get('session')).statusCode).toBe(401);

    clock.advance(MINUTE);
    const before = await db().selectFrom('sessions').select('id').where('user_id', '=', ann.userId).execute();
    expect((await new HttpClient(app).post('recovery/start', { email: ann.email })).statusCode).toBe(202);
    const token = await latestLinkToken(db(), ann.email, 'recover');
    const stranger = new HttpClient(app);
    const options = await stranger.post('recovery/complete', { token });
    expect((await stranger.post('recovery/complete', { token, credential: newAuthenticator().createCredential(options.json()) })).statusCode).toBe(200);
    const kept = await db().selectFrom('sessions').select(['id', 'revoked_at']).where('id', 'in', before.map((s) => s.id)).execute();
    expect(kept).toHaveLength(before.length);
    expect(kept.every((s) => s.revoked_at !== null)).toBe(true);
    expect((await ann.client.get('session')).statusCode).toBe(401);
  });
});
