import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { OPERATOR_EMAIL } from '../../src/auth/operator.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { latestLinkToken, newAuthenticator, register, signIn } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

/** A route of a later feature, behind the hooks this feature provides. */
function addProbeRoutes(app: App): void {
  app.get('/api/probe/me', { preHandler: app.requireSession }, async (request) => ({ user_id: request.auth!.userId, email: request.auth!.email }));
  app.get('/api/probe/admin', { preHandler: app.requireRole('admin') }, async () => ({ ok: true }));
  app.get('/api/probe/maybe', { preHandler: app.loadSession }, async (request) => ({ user_id: request.auth?.userId ?? null }));
}

describeEachDialect('AUTH_V1 rollout and the session hooks', (database) => {
  const clock = new ManualClock('2026-03-03T10:00:00.000Z');
  const db = () => database().handle.db;

  describe('ga (the default)', () => {
    let app: App;
    beforeAll(async () => {
      app = await buildTestApp(database().handle, { clock });
      addProbeRoutes(app);
    });
    afterAll(async () => app.close());

    it('lets anyone register; requireSession answers 401 without a session and knows the caller with one', async () => {
      const browser = new HttpClient(app);
      expect((await browser.get('/api/probe/me')).statusCode).toBe(401);
      expect((await browser.get('/api/probe/maybe')).json()).toEqual({ user_id: null });
      const authenticator = newAuthenticator();
      expect((await register(browser, authenticator, 'gus@example.com')).statusCode).toBe(201);
      await browser.get(`/api/auth/email/verify?token=${await latestLinkToken(db(), 'gus@example.com', 'verify-email')}`);
      expect((await signIn(browser, authenticator)).statusCode).toBe(200);
      const me = (await browser.get('/api/probe/me')).json();
      expect(me).toMatchObject({ email: 'gus@example.com' });
      expect((await browser.get('/api/probe/maybe')).json()).toEqual({ user_id: me.user_id });
      expect((await browser.get('/api/probe/admin')).statusCode).toBe(403);
      await db().updateTable('users').set({ role: 'admin' }).where('email', '=', 'gus@example.com').execute();
      expect((await browser.get('/api/probe/admin')).json()).toEqual({ ok: true });
      // A tampered or unknown cookie is no session.
      browser.cookie = 'x'.repeat(43);
      expect((await browser.get('/api/probe/me')).statusCode).toBe(401);
    });

    it('tells the web app the stage at GET /api/config, without a session', async () => {
      const response = await app.inject({ url: '/api/config' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ auth_v1: 'ga' });
    });

    it('refuses at startup a route that skips the Origin check but reads the session', async () => {
      const other = await buildTestApp(database().handle, { clock });
      expect(() =>
        other.post('/api/probe/unsafe', { config: { changesState: false }, preHandler: other.requireSession }, async () => ({})),
      ).toThrow(/changesState === false.*requireSession/);
      expect(() =>
        other.post('/api/probe/unsafe-admin', { config: { changesState: false }, preHandler: [other.requireRole('admin')] }, async () => ({})),
      ).toThrow(/requireSession/);
      expect(() =>
        other.post('/api/probe/unsafe-maybe', { config: { changesState: false }, preHandler: other.loadSession }, async () => ({})),
      ).toThrow(/requireSession/);
      // Either alone is fine.
      expect(() => other.post('/api/probe/open', { config: { changesState: false } }, async () => ({}))).not.toThrow();
      await other.close();
    });

    it('sets Secure on the cookie when the public origin is https', async () => {
      const secure = await buildTestApp(database().handle, { clock, env: { PUBLIC_ORIGIN: 'https://trade.example.com' } });
      const https = new SoftwareAuthenticator({ origin: 'https://trade.example.com' });
      const post = (url: string, payload?: object) =>
        secure.inject({ method: 'POST', url, headers: { origin: 'https://trade.example.com' }, ...(payload ? { payload } : {}) });
      const options = await post('/api/auth/register/options', { email: 'hal@example.com', display_name: 'Hal' });
      expect((await post('/api/auth/register/verify', https.createCredential(options.json()))).statusCode).toBe(201);
      await db().updateTable('users').set({ email_verified_at: clock.now().toISOString() }).where('email', '=', 'hal@example.com').execute();
      const login = await post('/api/auth/login/verify', https.getAssertion((await post('/api/auth/login/options')).json()));
      expect(login.statusCode).toBe(200);
      expect(String(login.headers['set-cookie'])).toMatch(/; Secure/);
      await secure.close();
    });
  });

  describe('beta', () => {
    let app: App;
    beforeAll(async () => {
      app = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'beta', AUTH_BETA_ALLOWLIST: 'ivy@example.com' } });
    });
    afterAll(async () => app.close());

    it('lets only allowlisted addresses register (403 registration_closed for others)', async () => {
      const browser = new HttpClient(app);
      const closed = await browser.post('/api/auth/register/options', { email: 'jo@example.com', display_name: 'Jo' });
      expect(closed.statusCode).toBe(403);
      expect(closed.json().error).toBe('registration_closed');
      expect((await register(browser, newAuthenticator(), 'IVY@example.com')).statusCode).toBe(201);
      expect(await db().selectFrom('users').select('email').where('email', '=', 'jo@example.com').executeTakeFirst()).toBeUndefined();
    });

    it('tells the web app the stage at GET /api/config', async () => {
      expect((await app.inject({ url: '/api/config' })).json()).toEqual({ auth_v1: 'beta' });
    });
  });

  describe('off', () => {
    let app: App;
    beforeAll(async () => {
      app = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'off' } });
      addProbeRoutes(app);
      app.get('/api/gdpr/retention', async () => ({ reachable: true }));
      app.get('/api/admin/users', async () => ({ reachable: true }));
    });
    afterAll(async () => app.close());

    it('answers 404 on every account, data-rights and admin path', async () => {
      for (const url of ['/api/auth/login/options', '/api/auth/register/options', '/api/auth/recovery/start']) {
        const response = await app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, payload: {} });
        expect(response.statusCode, url).toBe(404);
        expect(response.json().error).toBe('not_found');
      }
      for (const url of ['/api/auth/session', '/api/gdpr/retention', '/api/admin/users', '/api/auth/credentials']) {
        expect((await app.inject({ url })).statusCode, url).toBe(404);
      }
    });

    it('tells the web app it runs without accounts at GET /api/config (the one /api path about accounts that answers)', async () => {
      const response = await app.inject({ url: '/api/config' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ auth_v1: 'off' });
    });

    it('resolves requireSession to the one local operator, created on first use; loadSession finds no session', async () => {
      const first = (await app.inject({ url: '/api/probe/me' })).json();
      const second = (await app.inject({ url: '/api/probe/me' })).json();
      expect(first.email).toBe(OPERATOR_EMAIL);
      expect(second).toEqual(first);
      // There are no sessions under off: a route that answers differently without one answers as without.
      expect((await app.inject({ url: '/api/probe/maybe' })).json()).toEqual({ user_id: null });
      const operators = await db().selectFrom('users').selectAll().where('email', '=', OPERATOR_EMAIL).execute();
      expect(operators).toHaveLength(1);
      // Unreachable outside `off`: an undeliverable address, never verified, no admin role (see test/admin/operator-back-door.test.ts).
      expect(operators[0]).toMatchObject({ email: 'operator@tradelab.invalid', email_verified_at: null, role: 'user' });
    });
  });
});
