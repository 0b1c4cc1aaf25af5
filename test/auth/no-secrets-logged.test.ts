import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp, capturingLogger } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, newAuthenticator } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('auth secrets stay out of logs and the audit log', (database) => {
  const clock = new ManualClock('2026-03-08T09:00:00.000Z');
  const capture = capturingLogger();
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock, logger: capture.logger });
  });
  afterAll(async () => app.close());

  it('logs neither link tokens, nor the session cookie, nor challenges', async () => {
    const authenticator = newAuthenticator();
    const browser = new HttpClient(app);
    const creation = (await browser.post('/api/auth/register/options', { email: 'bo@example.com', display_name: 'Bo' })).json();
    await browser.post('/api/auth/register/verify', authenticator.createCredential(creation));
    const token = await latestLinkToken(db(), 'bo@example.com', 'verify-email');
    await app.inject({ url: `/verify-email?token=${token}` });
    expect((await browser.get(`/api/auth/email/verify?token=${token}`)).statusCode).toBe(200);
    const request = (await browser.post('/api/auth/login/options')).json();
    expect((await browser.post('/api/auth/login/verify', authenticator.getAssertion(request))).statusCode).toBe(200);
    await browser.post('/api/auth/recovery/start', { email: 'bo@example.com' });
    const recoveryToken = await latestLinkToken(db(), 'bo@example.com', 'recover');
    await browser.post('/api/auth/recovery/complete', { token: recoveryToken });

    const logs = capture.text();
    expect(logs).toContain('/api/auth/email/verify');
    const audit = JSON.stringify(await db().selectFrom('audit_entries').selectAll().execute());
    for (const secret of [token, recoveryToken, browser.cookie!, creation.challenge, request.challenge]) {
      expect(logs).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
  });
});
