import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { latestLinkToken, newAuthenticator, signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

describeEachDialect('registration rules', (database) => {
  const clock = new ManualClock('2026-03-06T09:00:00.000Z');
  let app: App;
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterAll(async () => app.close());

  it('survives two registrations of one new address at once: one account, no 500', async () => {
    const browsers = [new HttpClient(app), new HttpClient(app), new HttpClient(app)];
    const attempts = await Promise.all(
      browsers.map(async (browser) => {
        const options = await browser.post('/api/auth/register/options', { email: 'tia@example.com', display_name: 'Tia' });
        return newAuthenticator().createCredential(options.json());
      }),
    );
    const results = await Promise.all(attempts.map((attempt, i) => browsers[i]!.post('/api/auth/register/verify', attempt)));
    for (const result of results) expect([201, 400]).toContain(result.statusCode);
    expect(await db().selectFrom('users').select('id').where('email', '=', 'tia@example.com').execute()).toHaveLength(1);
  });

  it('answers options for a new and a taken address in the same shape', async () => {
    await signedInAccount(new HttpClient(app), db(), { email: 'uma@example.com' });
    const shape = (options: Record<string, unknown>) => JSON.stringify(options, (key, value) => (typeof value === 'string' ? '' : value));
    const taken = (await new HttpClient(app).post('/api/auth/register/options', { email: 'uma@example.com', display_name: 'X' })).json();
    const fresh = (await new HttpClient(app).post('/api/auth/register/options', { email: 'vic@example.com', display_name: 'X' })).json();
    expect(shape(taken)).toBe(shape(fresh));
    expect(taken.excludeCredentials).toEqual([]);
  });

  it('stores a rectified address only when no other account holds it', async () => {
    const { userId } = await signedInAccount(new HttpClient(app), db(), { email: 'wes@example.com' });
    await signedInAccount(new HttpClient(app), db(), { email: 'xia@example.com' });
    // What the rectification feature will do: a link for the new address, purpose rectification.
    const { sendEmailLink } = await import('../../src/auth/email-links.service.js');
    const { verificationMail } = await import('../../src/auth/auth-mails.js');
    clock.advance(1000);
    for (const email of ['xia@example.com', 'wes.new@example.com']) {
      await sendEmailLink(db(), clock, { userId, email, purpose: 'rectification', publicOrigin: 'http://localhost:3000', mail: verificationMail });
    }
    const clash = await new HttpClient(app).get(`/api/auth/email/verify?token=${await latestLinkToken(db(), 'xia@example.com', 'verify-email')}`);
    expect(clash.statusCode).toBe(409);
    const moved = await new HttpClient(app).get(`/api/auth/email/verify?token=${await latestLinkToken(db(), 'wes.new@example.com', 'verify-email')}`);
    expect(moved.statusCode).toBe(200);
    expect((await db().selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email).toBe('wes.new@example.com');
  });
});
