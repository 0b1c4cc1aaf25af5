import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { Browser, latestLinkToken, newAuthenticator, register, signedUpUser } from './auth-client.js';

describeEachDialect('mail-link pages', (database) => {
  const clock = new ManualClock('2026-03-05T09:00:00.000Z');
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => app.close());

  it('serves the verify-email page without consuming the link (a mail scanner fetching it changes nothing)', async () => {
    await register(new Browser(app), newAuthenticator(), 'rae@example.com');
    const token = await latestLinkToken(db(), 'rae@example.com', 'verify-email');
    for (let i = 0; i < 3; i += 1) {
      const page = await app.inject({ url: `/verify-email?token=${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<script type="module" src="/auth-pages/verify-email.js"></script>');
      expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
    const link = await db().selectFrom('email_verifications').select('consumed_at').where('email', '=', 'rae@example.com').executeTakeFirstOrThrow();
    expect(link.consumed_at).toBeNull();
    const script = await app.inject({ url: '/auth-pages/verify-email.js' });
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain("addEventListener('click'");
    expect(script.body).toContain('/api/auth/email/verify?token=');
    expect(() => new Function(script.body)).not.toThrow();
    // The page's button makes this call; it works once.
    expect((await app.inject({ url: `/api/auth/email/verify?token=${token}` })).statusCode).toBe(200);
  });

  it('serves the recover page and its WebAuthn script; fetching it, or asking for options, leaves the link usable', async () => {
    await signedUpUser(app, db(), 'sam@example.com');
    const browser = new Browser(app);
    await browser.post('/api/auth/recovery/start', { email: 'sam@example.com' });
    const token = await latestLinkToken(db(), 'sam@example.com', 'recover');
    const page = await app.inject({ url: `/recover?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('src="/auth-pages/recover.js"');
    const script = (await app.inject({ url: '/auth-pages/recover.js' })).body;
    expect(script).toContain('navigator.credentials.create');
    // Both scripts parse (they are hand-written, kept in template strings).
    expect(() => new Function(script)).not.toThrow();
    expect((await browser.post('/api/auth/recovery/complete', { token })).statusCode).toBe(200);
    expect((await browser.post('/api/auth/recovery/complete', { token })).statusCode).toBe(200);
    const link = await db().selectFrom('email_verifications').select('consumed_at').where('purpose', '=', 'recovery').where('email', '=', 'sam@example.com').executeTakeFirstOrThrow();
    expect(link.consumed_at).toBeNull();
  });
});
