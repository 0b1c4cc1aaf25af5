import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { createTestDatabase, describeEachDialect } from '../../helpers/dialects.js';

describeEachDialect('app', (db, dialect) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers /healthz while the process lives and /readyz while the database answers', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('reports not ready, as JSON, when the database is gone', async () => {
    const lonely = await createTestDatabase(dialect);
    const lonelyApp = await buildTestApp(lonely.handle);
    await lonely.drop();
    const response = await lonelyApp.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: 'database_unavailable' });
    expect((await lonelyApp.inject({ url: '/healthz' })).statusCode).toBe(200);
    await lonelyApp.close();
  });

  it('publishes OpenAPI 3 generated from the route schemas, and a docs page', async () => {
    const spec = (await app.inject({ url: '/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(spec.paths['/readyz'].get.responses['200'].content['application/json'].schema.properties.status.type).toBe('string');
    expect(spec.components.schemas).toHaveProperty('ErrorResponse');

    const docs = await app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toContain('swagger-ui');
  });

  it('sends security headers with a same-origin content security policy and a request id', async () => {
    const response = await app.inject({ url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives /docs the app's own policy but for inline styles", async () => {
    const appPolicy = directives((await app.inject({ url: '/healthz' })).headers['content-security-policy']);
    const docsPolicy = directives((await app.inject({ url: '/docs/' })).headers['content-security-policy']);
    expect(docsPolicy).toEqual({ ...appPolicy, 'style-src': "'self' 'unsafe-inline'" });
    expect(docsPolicy['script-src']).toBe("'self'");
  });

  it('takes the client address from X-Forwarded-For only when TRUST_PROXY says so', async () => {
    const addressOf = async (env: Record<string, string>) => {
      const proxied = await buildTestApp(db().handle, { env });
      proxied.get('/fixture/ip', async (request) => ({ ip: request.ip }));
      const response = await proxied.inject({
        url: '/fixture/ip',
        remoteAddress: '10.0.0.5',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      await proxied.close();
      return response.json().ip;
    };
    expect(await addressOf({})).toBe('10.0.0.5');
    expect(await addressOf({ TRUST_PROXY: 'uniquelocal' })).toBe('203.0.113.9');
    expect(await addressOf({ TRUST_PROXY: '10.0.0.0/8' })).toBe('203.0.113.9');
    expect(await addressOf({ TRUST_PROXY: '192.168.0.0/16' })).toBe('10.0.0.5');
  });

  it('adds HSTS when the public origin is https', async () => {
    const secureApp = await buildTestApp(db().handle, { env: { PUBLIC_ORIGIN: 'https://trade.example.com' } });
    const response = await secureApp.inject({ url: '/healthz' });
    expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
    const docs = await secureApp.inject({ url: '/docs/' });
    expect(directives(docs.headers['content-security-policy'])).toHaveProperty('upgrade-insecure-requests');
    await secureApp.close();
  });
});

/** A Content-Security-Policy header as directive name → sources. */
function directives(header: string | string[] | number | undefined): Record<string, string> {
  const entries = String(header)
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean)
    .map((directive) => {
      const [name = '', ...sources] = directive.split(/\s+/);
      return [name, sources.join(' ')] as const;
    });
  return Object.fromEntries(entries);
}
