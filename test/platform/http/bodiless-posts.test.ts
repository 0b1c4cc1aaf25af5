import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { signedInAccount } from '../../helpers/accounts.js';
import { buildTestApp } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { HttpClient } from '../../helpers/http-client.js';

/**
 * DESIGN: a POST that takes no body accepts none, an empty body, or `{}` (what many HTTP clients send by default);
 * any other body is a 400. The routes are every POST of `/openapi.json` without a request body.
 */
const ACCEPTED: readonly (string | undefined)[] = [undefined, '', '{}', ' { } '];
const REFUSED: readonly string[] = ['{"a":1}', '[]', '"x"', 'null', '{} {}'];

describeEachDialect('a POST without a body schema', (db) => {
  let app: App;
  let bodiless: string[];

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    const document = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    bodiless = Object.entries(document.paths)
      .filter(([, methods]) => methods.post && !methods.post.requestBody)
      .map(([path]) => path)
      // Signing out last: it ends the session the others need.
      .sort((a, b) => Number(a.endsWith('/logout')) - Number(b.endsWith('/logout')));
  });

  afterAll(async () => {
    await app.close();
  });

  it('is found in the document: export, portfolio reset, the passkey options, logout', () => {
    expect(bodiless).toEqual(
      expect.arrayContaining(['/api/gdpr/export', '/api/trade-window/portfolio/reset', '/api/auth/login/options', '/api/auth/step-up/options', '/api/auth/logout']),
    );
  });

  it.each(ACCEPTED)('accepts the body %j, signed in', async (payload) => {
    const { client } = await signedInAccount(new HttpClient(app), db().handle.db);
    for (const path of bodiless) {
      const response = await client.post(path, payload, payload === undefined ? {} : { 'content-type': 'application/json' });
      expect(response.statusCode, `${path} ${response.body}`).toBeLessThan(300);
    }
  });

  it.each(REFUSED)('refuses the body %j with a 400 unexpected_body, changing nothing', async (payload) => {
    const { client, userId } = await signedInAccount(new HttpClient(app), db().handle.db);
    for (const path of bodiless) {
      const response = await client.post(path, payload, { 'content-type': 'application/json' });
      expect(response.statusCode, path).toBe(400);
      expect(response.json(), path).toMatchObject({ error: 'unexpected_body', message: expect.stringContaining('{}') });
    }
    const exports = await db().handle.db.selectFrom('data_exports').select('id').where('user_id', '=', userId).execute();
    expect(exports).toEqual([]);
    expect((await client.get('/api/auth/session')).statusCode).toBe(200);
  });
});
