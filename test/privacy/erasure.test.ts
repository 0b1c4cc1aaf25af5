import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { DAY, MINUTE, SECOND } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { mailsTo, newAuthenticator, register, signedInAccount, signIn, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient, sessionCookieOf } from '../helpers/http-client.js';
import { bar, placeOrder, seedBars } from '../trading/trading-kit.js';
import { GDPR, stepUpAssertion } from './privacy-kit.js';

describeEachDialect('data rights: erasure', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-05-04T08:00:00.000Z');
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await seedBars(db(), clock, 'EEE', [bar('2026-05-01', 20)]);
  });
  afterAll(async () => app?.close());

  const userRow = (id: string) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const openSessions = (id: string) =>
    db().selectFrom('sessions').select('id').where('user_id', '=', id).where('revoked_at', 'is', null).execute();

  async function expectNotErased(account: SignedInAccount, response: LightMyRequestResponse, status: number, error: string) {
    expect({ status: response.statusCode, error: response.json().error }).toEqual({ status, error });
    expect((await userRow(account.userId)).deleted_at).toBeNull();
    expect((await account.client.get('session')).statusCode).toBe(200);
  }

  it('is refused without an assertion, with a stale one, and with another user’s', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const bob = await signedInAccount(new HttpClient(app), db());

    await expectNotErased(ann, await ann.client.post(`${GDPR}/erase`, {}), 400, 'validation_failed');
    await expectNotErased(ann, await ann.client.post(`${GDPR}/erase`), 400, 'validation_failed');

    // Stale: the step-up challenge lives 60 seconds.
    const stale = await stepUpAssertion(ann);
    clock.advance(60 * SECOND);
    await expectNotErased(ann, await ann.client.post(`${GDPR}/erase`, { credential: stale }), 400, 'challenge_invalid');

    // Bob's assertion to Bob's challenge, sent with Ann's session.
    const bobs = await stepUpAssertion(bob);
    const replayed = await ann.client.post(`${GDPR}/erase`, { credential: bobs });
    expect([400, 401]).toContain(replayed.statusCode);
    await expectNotErased(ann, replayed, replayed.statusCode, replayed.json().error);

    // Ann's challenge signed by Bob's passkey.
    const options = (await ann.client.post('step-up/options')).json();
    // (Bob's authenticator would not offer a passkey Ann's options do not allow: the browser's filter is lifted.)
    const forged = bob.authenticator.getAssertion({ ...options, allowCredentials: [] }, { credentialId: bob.credentialId });
    await expectNotErased(ann, await ann.client.post(`${GDPR}/erase`, { credential: forged }), 401, 'authentication_failed');

    // A login assertion is not a step-up.
    const login = ann.authenticator.getAssertion((await new HttpClient(app).post('login/options')).json());
    const wrongCeremony = await ann.client.post(`${GDPR}/erase`, { credential: login });
    expect(wrongCeremony.statusCode).toBe(400);
    expect((await userRow(ann.userId)).deleted_at).toBeNull();
    expect((await userRow(bob.userId)).deleted_at).toBeNull();
  });

  it('erases at once: deleted_at, every session revoked (kept), resting orders canceled, cookie cleared, 30-day purge date', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const laptop = new HttpClient(app);
    expect((await signIn(laptop, ann.authenticator)).statusCode).toBe(200);
    expect((await placeOrder(ann.client, { symbol: 'EEE', side: 'buy', qty: 2 })).json().status).toBe('filled');
    const resting = (await placeOrder(ann.client, { symbol: 'EEE', side: 'buy', qty: 1, order_type: 'limit', limit_price: 10 })).json();
    expect(resting.status).toBe('accepted');
    const sessionsBefore = await openSessions(ann.userId);
    expect(sessionsBefore.length).toBe(2);
    clock.advance(MINUTE);

    const erased = await ann.client.post(`${GDPR}/erase`, { credential: await stepUpAssertion(ann) });
    expect(erased.statusCode, erased.body).toBe(202);
    const now = clock.now().toISOString();
    expect(erased.json()).toEqual({ deleted_at: now, purge_after: new Date(clock.now().getTime() + 30 * DAY).toISOString() });
    expect(sessionCookieOf(erased)).toBe('');

    expect((await userRow(ann.userId)).deleted_at).toBe(now);
    const sessions = await db().selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', ann.userId).execute();
    expect(sessions.map((s) => s.revoked_at)).toEqual(sessionsBefore.map(() => now));
    const orders = await db().selectFrom('orders').select(['id', 'status']).where('user_id', '=', ann.userId).orderBy('created_at').execute();
    expect(orders.map((o) => o.status)).toEqual(['filled', 'canceled']);
    const actions = await db().selectFrom('audit_entries').select(['action', 'context']).where('actor_user_id', '=', ann.userId).where('at', '=', now).execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['order.cancel', 'session.revoke', 'session.revoke', 'user.erase'].sort());
    // The step-up and the erasure happened in this request; the laptop's session is gone too.
    expect((await laptop.get('session')).statusCode).toBe(401);
    // A notice to the address, in the same transaction: an erasure the person did not make is seen within the 30 days.
    const notice = (await mailsTo(db(), ann.email)).at(-1)!;
    expect(notice.subject).toBe('Your tradelab account has been erased');
    expect(notice.text_body).toContain(now);
    expect(notice.text_body).toContain(new Date(clock.now().getTime() + 30 * DAY).toISOString());
    expect(notice.text_body).toContain('contact the operator');
  });

  it('after erasure: sign-in and recovery refuse, the address stays taken, and every /api route answers the old cookie as it answers no cookie', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const cookie = ann.client.cookie!;
    const spec = (await new HttpClient(app).get('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) => Object.keys(methods).filter((m) => ['get', 'post', 'patch', 'delete'].includes(m)).map((m) => ({ method: m.toUpperCase() as 'GET', path })));
    expect(routes.length).toBeGreaterThan(30);
    const concrete = (path: string) => path.replace(/\{[^}]+\}/g, (name) => (name === '{id}' && path.startsWith('/api/strategies') ? '1' : '00000000-0000-4000-8000-000000000000'));
    const call = (client: HttpClient, route: { method: 'GET'; path: string }) =>
      client.request(route.method, concrete(route.path), route.method === 'GET' || route.method === ('DELETE' as string) ? undefined : {});

    // While the account lives, the cookie opens its session.
    expect((await ann.client.get('session')).statusCode).toBe(200);
    expect((await ann.client.post(`${GDPR}/erase`, { credential: await stepUpAssertion(ann) })).statusCode).toBe(202);

    const erasedClient = new HttpClient(app);
    erasedClient.cookie = cookie;
    const anonymous = new HttpClient(app);
    let refused = 0;
    for (const route of routes) {
      const withCookie = await call(erasedClient, route);
      const without = await call(anonymous, route);
      const shape = (r: LightMyRequestResponse) => ({ route: `${route.method} ${route.path}`, status: r.statusCode, error: String(r.headers['content-type']).includes('json') ? r.json().error : undefined });
      expect(shape(withCookie)).toEqual(shape(without));
      if (withCookie.statusCode === 401) refused += 1;
    }
    expect(refused).toBeGreaterThan(15);

    // Sign-in with the passkey: refused. Recovery: answered 202 as always, nothing mailed.
    const signInAgain = await signIn(new HttpClient(app), ann.authenticator);
    expect({ status: signInAgain.statusCode, error: signInAgain.json().error }).toEqual({ status: 401, error: 'authentication_failed' });
    const mailsBefore = (await mailsTo(db(), ann.email)).length;
    expect((await new HttpClient(app).post('recovery/start', { email: ann.email })).statusCode).toBe(202);
    expect(await mailsTo(db(), ann.email)).toHaveLength(mailsBefore);
    // Refresh with the old cookie: 401.
    expect((await erasedClient.post('session/refresh')).statusCode).toBe(401);

    // The address stays taken: a new registration stores nothing.
    const again = await register(new HttpClient(app), newAuthenticator(), ann.email);
    expect(again.statusCode).toBe(201);
    const holders = await db().selectFrom('users').select(['id', 'deleted_at']).where('email', '=', ann.email).execute();
    expect(holders).toEqual([{ id: ann.userId, deleted_at: expect.any(String) }]);
  });

  it('a second erasure request with a stale cookie cannot happen: the session is gone', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const assertion = await stepUpAssertion(ann);
    const cookie = ann.client.cookie;
    expect((await ann.client.post(`${GDPR}/erase`, { credential: assertion })).statusCode).toBe(202);
    const replay = new HttpClient(app);
    replay.cookie = cookie;
    expect((await replay.post(`${GDPR}/erase`, { credential: assertion })).statusCode).toBe(401);
    clock.advance(MINUTE);
  });
});
