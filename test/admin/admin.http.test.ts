import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { signedInAccount, uniqueEmail } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { ADMIN_ROUTES, signedInAdmin } from './admin-kit.js';

describeEachDialect('the admin API', (database) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const db = () => database().handle.db;
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => app.close());

  describe('role checks on every admin route', () => {
    it('401 unauthenticated without a session', async () => {
      const stranger = new HttpClient(app);
      for (const route of ADMIN_ROUTES) {
        const response = await stranger.request(route.method, route.url, route.body);
        expect(response.statusCode, route.url).toBe(401);
        expect(response.json().error, route.url).toBe('unauthenticated');
      }
    });

    it('403 forbidden for a signed-in non-admin, and nothing recorded or queued', async () => {
      const ann = await signedInAccount(new HttpClient(app), db());
      const auditBefore = await db().selectFrom('audit_entries').select('id').execute();
      for (const route of ADMIN_ROUTES) {
        const response = await ann.client.request(route.method, route.url, route.body);
        expect(response.statusCode, route.url).toBe(403);
        expect(response.json().error, route.url).toBe('forbidden');
      }
      expect(await db().selectFrom('audit_entries').select('id').execute()).toHaveLength(auditBefore.length);
      expect(await db().selectFrom('breach_incidents').selectAll().execute()).toEqual([]);
    });

    it('404 on every admin route under AUTH_V1=off', async () => {
      const off = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'off' } });
      try {
        for (const route of ADMIN_ROUTES) {
          const response = await off.inject({ method: route.method, url: route.url, headers: { origin: TEST_ORIGIN }, ...(route.body ? { payload: route.body } : {}) });
          expect(response.statusCode, route.url).toBe(404);
          expect(response.json().error, route.url).toBe('not_found');
        }
      } finally {
        await off.close();
      }
    });
  });

  describe('GET /api/admin/users', () => {
    it('lists accounts with DESIGN’s fields and no others, paged, searchable on email, the read audited', async () => {
      const admin = await signedInAdmin(app, db(), clock);
      const bob = await signedInAccount(new HttpClient(app), db(), { email: uniqueEmail('bob'), displayName: 'Bob Secret-Name' });

      const all = await admin.client.get('/api/admin/users?limit=200');
      expect(all.statusCode, all.body).toBe(200);
      expect(Number(all.headers['x-total-count'])).toBe(all.json().length);
      for (const user of all.json()) {
        expect(Object.keys(user).sort()).toEqual(['created_at', 'deleted', 'email', 'email_verified', 'id', 'last_sign_in_at', 'passkeys', 'role'].sort());
      }
      expect(all.body).not.toContain('Bob Secret-Name');
      expect(all.body).not.toContain('vitest-browser');

      const found = await admin.client.get(`/api/admin/users?q=${encodeURIComponent(bob.email.slice(0, 8).toUpperCase())}`);
      expect(found.json()).toEqual([
        { id: bob.userId, email: bob.email, role: 'user', created_at: expect.any(String), email_verified: true, deleted: false, passkeys: 1, last_sign_in_at: clock.now().toISOString() },
      ]);
      // `%` and `_` are matched literally.
      expect((await admin.client.get('/api/admin/users?q=%25')).json()).toEqual([]);

      const first = await admin.client.get('/api/admin/users?limit=1&offset=0');
      const second = await admin.client.get('/api/admin/users?limit=1&offset=1');
      expect(first.json()).toHaveLength(1);
      expect(second.json()[0].id).not.toBe(first.json()[0].id);
      expect((await admin.client.get('/api/admin/users?limit=201')).statusCode).toBe(400);

      const reads = await db().selectFrom('audit_entries').selectAll().where('action', '=', 'admin.users_read').where('actor_user_id', '=', admin.userId).orderBy('id').execute();
      // Five answered reads; the refused one (limit 201) never reached the service.
      expect(reads).toHaveLength(5);
      expect(JSON.parse(reads[1]!.context!)).toEqual({ query: { q: expect.any(String), limit: 50, offset: 0 } });
    });
  });

  describe('GET /api/admin/audit', () => {
    it('records each read (with its query) before answering, so the next read shows it', async () => {
      const admin = await signedInAdmin(app, db(), clock);
      const query = `/api/admin/audit?actor_user_id=${admin.userId}&action=admin.audit_read`;
      const first = await admin.client.get(query);
      expect(first.statusCode, first.body).toBe(200);
      // Written before the search: the first read already finds itself.
      expect(first.json()).toHaveLength(1);
      const second = await admin.client.get(query);
      expect(second.json()).toHaveLength(2);
      expect(second.headers['x-total-count']).toBe('2');
      const [newest, older] = second.json();
      expect(newest.id).toBeGreaterThan(older.id);
      expect(older).toEqual({
        id: expect.any(Number),
        at: clock.now().toISOString(),
        actor_user_id: admin.userId,
        action: 'admin.audit_read',
        target_kind: null,
        target_id: null,
        context: { query: { actor_user_id: admin.userId, action: 'admin.audit_read', limit: 50, offset: 0 } },
      });
    });

    it('filters by target, time range and pages; bad filters are 400 and still nothing is answered', async () => {
      const admin = await signedInAdmin(app, db(), clock);
      const byTarget = await admin.client.get(`/api/admin/audit?target_kind=user&target_id=${admin.userId}`);
      expect(byTarget.json().map((e: { action: string }) => e.action)).toContain('admin.grant');
      expect(byTarget.json().every((e: { target_id: string }) => e.target_id === admin.userId)).toBe(true);
      const grant = byTarget.json().find((e: { action: string }) => e.action === 'admin.grant');
      expect(grant.actor_user_id).toBeNull();

      const later = new Date(clock.now().getTime() + 1000).toISOString();
      expect((await admin.client.get(`/api/admin/audit?from=${later}`)).json()).toEqual([]);
      const window = await admin.client.get(`/api/admin/audit?from=${clock.now().toISOString()}&to=${later}&limit=2&offset=1`);
      expect(window.json()).toHaveLength(2);
      expect(Number(window.headers['x-total-count'])).toBeGreaterThan(3);

      for (const bad of ['from=yesterday', 'target_kind=planet', 'limit=0', 'extra=1']) {
        const response = await admin.client.get(`/api/admin/audit?${bad}`);
        expect(response.statusCode, bad).toBe(400);
      }
    });
  });
});
