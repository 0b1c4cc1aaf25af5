import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { createTestDatabase, DIALECTS } from '../helpers/dialects.js';
import {
  latestLinkToken,
  loginOptions,
  newAuthenticator,
  registrationOptions,
  signedInAccount,
  uniqueEmail,
} from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { expectRefusal } from './refusals-kit.js';

/**
 * Two app instances on one PostgreSQL schema, each with its own connection pool, as two processes
 * behind a load balancer: every piece of ceremony and session state is in the database, so either
 * instance can finish what the other began, and neither can finish it twice.
 *
 * PostgreSQL only. Without TEST_DATABASE_URL it is skipped locally (with the warning of
 * test/helpers/dialects.ts); in CI that file refuses to run without it, so this never skips there.
 */
const describePostgres = DIALECTS.includes('postgres') ? describe : describe.skip;
const REDIS_URL = process.env.REDIS_URL?.trim() || undefined;

describePostgres('two app instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: App;
  let b: App;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    a = await buildTestApp(database.handle);
    b = await buildTestApp(database.openAnother());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('register on A and finish on B, verify the mail link on A, sign in through B and A, the session works on both', async () => {
    const onA = new HttpClient(a);
    const onB = onA.on(b);
    const authenticator = newAuthenticator();
    const email = uniqueEmail('two');

    const creation = await registrationOptions(onA, email);
    const registered = await onB.post('register/verify', authenticator.createCredential(creation));
    expect(registered.statusCode, registered.body).toBe(201);
    const token = await latestLinkToken(database.handle.db, email);
    expect((await onA.get(`email/verify?token=${token}`)).statusCode).toBe(200);

    const request = await loginOptions(onB);
    const signedIn = await onA.post('login/verify', authenticator.getAssertion(request));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(onA.cookie).toBeTruthy();

    const sessionOnB = await onA.on(b).get('session');
    expect(sessionOnB.statusCode, sessionOnB.body).toBe(200);
    expect(sessionOnB.json()).toMatchObject({ user_id: registered.json().user_id, email });
    const refreshedOnB = await onA.on(b).post('session/refresh', {});
    expect(refreshedOnB.statusCode, refreshedOnB.body).toBe(200);
    expect((await onA.get('session')).statusCode).toBe(200);
  });

  it('a challenge consumed on A is refused on B', async () => {
    const onA = new HttpClient(a);
    const { authenticator } = await signedInAccount(onA, database.handle.db);
    const assertion = authenticator.getAssertion(await loginOptions(onA));
    expect((await onA.post('login/verify', assertion)).statusCode).toBe(200);
    expectRefusal(await new HttpClient(b).post('login/verify', assertion), 400, 'challenge_invalid');
  });

  it('the same assertion sent to A and B at once signs in exactly once', async () => {
    const onA = new HttpClient(a);
    const { authenticator } = await signedInAccount(onA, database.handle.db);
    for (let round = 0; round < 5; round += 1) {
      const assertion = authenticator.getAssertion(await loginOptions(onA));
      const answers = await Promise.all([new HttpClient(a).post('login/verify', assertion), new HttpClient(b).post('login/verify', assertion)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(answers.find((r) => r.statusCode === 400)!.json().error).toBe('challenge_invalid');
    }
  });

  it('logout on B ends the session on A; a step-up begun on A finishes on B', async () => {
    const onA = new HttpClient(a);
    const { authenticator } = await signedInAccount(onA, database.handle.db);
    const stepUp = (await onA.post('step-up/options')).json();
    const verified = await onA.on(b).post('step-up/verify', authenticator.getAssertion(stepUp));
    expect(verified.statusCode, verified.body).toBe(200);

    expect((await onA.on(b).post('logout')).statusCode).toBe(204);
    expectRefusal(await onA.get('session'), 401, 'unauthenticated');
  });

  it('one email link opened on A and B at once verifies once (the other answers 410 link_used)', async () => {
    const onA = new HttpClient(a);
    const email = uniqueEmail('race');
    const creation = await registrationOptions(onA, email);
    expect((await onA.post('register/verify', newAuthenticator().createCredential(creation))).statusCode).toBe(201);
    const token = await latestLinkToken(database.handle.db, email);
    const answers = await Promise.all([new HttpClient(a).get(`email/verify?token=${token}`), new HttpClient(b).get(`email/verify?token=${token}`)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 410]);
  });

  it('one recovery link finished on A and B at once, with two ceremonies, recovers once', async () => {
    const onA = new HttpClient(a);
    const account = await signedInAccount(onA, database.handle.db);
    expect((await new HttpClient(b).post('recovery/start', { email: account.email })).statusCode).toBe(202);
    const token = await latestLinkToken(database.handle.db, account.email);
    const first = new HttpClient(a);
    const second = new HttpClient(b);
    const [optionsA, optionsB] = [(await first.post('recovery/complete', { token })).json(), (await second.post('recovery/complete', { token })).json()];
    const answers = await Promise.all([
      first.post('recovery/complete', { token, credential: newAuthenticator().createCredential(optionsA) }),
      second.post('recovery/complete', { token, credential: newAuthenticator().createCredential(optionsB) }),
    ]);
    expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join(' | ')).toEqual([200, 410]);
    expect([first.cookie, second.cookie].filter(Boolean)).toHaveLength(1);
    const credentials = await database.handle.db.selectFrom('passkey_credentials').select('id').where('user_id', '=', account.userId).execute();
    expect(credentials).toHaveLength(1);
  });

  it('a passkey added on A while a recovery completes on B never outlives the recovery (10 rounds)', async () => {
    const db = database.handle.db;
    for (let round = 0; round < 10; round += 1) {
      const onA = new HttpClient(a);
      const account = await signedInAccount(onA, db);
      const addOptions = (await onA.post('credentials/add/options')).json();
      const onB = new HttpClient(b);
      expect((await onB.post('recovery/start', { email: account.email })).statusCode).toBe(202);
      const token = await latestLinkToken(db, account.email);
      const recoveryOptions = (await onB.post('recovery/complete', { token })).json();
      const recoveryKey = newAuthenticator().createCredential(recoveryOptions);
      const [added, recovered] = await Promise.all([
        onA.post('credentials/add/verify', newAuthenticator().createCredential(addOptions)),
        onB.post('recovery/complete', { token, credential: recoveryKey }),
      ]);
      expect(recovered.statusCode, recovered.body).toBe(200);
      // Either the device came first and the recovery removed it, or the recovery came first and ended A's session.
      expect([201, 401], added.body).toContain(added.statusCode);
      const left = await db.selectFrom('passkey_credentials').select('id').where('user_id', '=', account.userId).execute();
      expect(left.map((row) => row.id)).toEqual([recoveryKey.id]);
    }
  });

  it('rate-limit counters are shared: 20 sign-in options a minute per network across both instances', async () => {
    const onA = new HttpClient(a);
    const onB = onA.on(b);
    const codes: number[] = [];
    for (let i = 0; i < 21; i += 1) codes.push((await (i % 2 === 0 ? onA : onB).post('login/options')).statusCode);
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(codes[20]).toBe(429);
  });

  it.skipIf(!REDIS_URL)('with REDIS_URL the counters live in Redis and are shared the same way', async () => {
    const withRedis = { env: { REDIS_URL: REDIS_URL! } };
    const ra = await buildTestApp(database.handle, withRedis);
    const rb = await buildTestApp(database.openAnother(), withRedis);
    try {
      // Redis outlives this test run, so the client network is random rather than counted from 1.
      const address = `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 256)}.9`;
      const onA = new HttpClient(ra, { address });
      const onB = onA.on(rb);
      const countersInDatabase = async () => (await database.handle.db.selectFrom('rate_limit_counters').select('key').execute()).length;
      const before = await countersInDatabase();
      const codes: number[] = [];
      for (let i = 0; i < 21; i += 1) codes.push((await (i % 2 === 0 ? onA : onB).post('login/options')).statusCode);
      expect(codes.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(codes[20]).toBe(429);
      expect(await countersInDatabase(), 'the counting happened in Redis').toBe(before);
    } finally {
      await ra.close();
      await rb.close();
    }
  });
});
