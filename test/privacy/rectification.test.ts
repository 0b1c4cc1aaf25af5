import os from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { mintEmailLinkToken } from '../../src/auth/email-links.service.js';
import { MINUTE } from '../../src/platform/clock.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { SEND_MAIL_JOB } from '../../src/platform/mail/outbox.js';
import { sendMailJob } from '../../src/platform/mail/send-mail.job.js';
import { createMailTransport, type MailTransport } from '../../src/platform/mail/transport.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { signedInAccount, uniqueEmail, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { startSmtpServer, type TestSmtpServer } from '../platform/mail/smtp-test-server.js';
import { GDPR, stepUpAssertion } from './privacy-kit.js';

describeEachDialect('data rights: rectification, end to end over SMTP', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let app: App;
  let smtp: TestSmtpServer;
  let transport: MailTransport;
  let worker: JobWorker;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(database().handle, { clock });
    const logger = pino({ level: 'silent' });
    transport = createMailTransport({ smtpUrl: smtp.url, mailDir: os.tmpdir(), logger });
    worker = new JobWorker({
      db: db(),
      dialect: database().dialect,
      clock,
      logger,
      handlers: { [SEND_MAIL_JOB]: sendMailJob({ db: db(), clock, transport, from: 'tradelab <no-reply@localhost>', mintLinkToken: mintEmailLinkToken }) },
    });
  });
  afterAll(async () => {
    await app?.close();
    transport?.close();
    await smtp?.close();
  });

  /** Delivers what is queued over SMTP and answers the mails received for `to` since `since`. */
  async function deliver(to: string, since: number) {
    await worker.runUntilIdle();
    return smtp.received.slice(since).filter((r) => r.envelope.to.includes(to));
  }
  const patch = (account: SignedInAccount, body: unknown) => account.client.request('PATCH', `${GDPR}/profile`, body);

  it('changes the display name at once, and clears it with null', async () => {
    const ann = await signedInAccount(new HttpClient(app), db(), { displayName: 'Ann' });
    const renamed = await patch(ann, { display_name: '  Ann Example  ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ email: ann.email, display_name: 'Ann Example', pending_email: null });
    expect((await ann.client.get('session')).json().display_name).toBe('Ann Example');
    expect((await patch(ann, { display_name: null })).json()).toEqual({ email: ann.email, display_name: null, pending_email: null });
    expect((await patch(ann, { display_name: 'x'.repeat(65) })).statusCode).toBe(400);
    const nothing = await patch(ann, {});
    expect(nothing.statusCode, nothing.body).toBe(400);
    expect(nothing.json()).toMatchObject({ error: 'validation_failed', details: [{ field: 'body' }] });
  });

  it('an email change: step-up required, a 15-minute link to the new address, a notice to the old, the change only when the link is used', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const newEmail = uniqueEmail('moved');
    const since = smtp.received.length;

    const refused = await patch(ann, { email: newEmail });
    expect({ status: refused.statusCode, error: refused.json().error }).toEqual({ status: 403, error: 'step_up_required' });
    expect(await deliver(newEmail, since)).toEqual([]);

    const started = await patch(ann, { email: newEmail.toUpperCase(), credential: await stepUpAssertion(ann) });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toEqual({ email: ann.email, display_name: 'Test User', pending_email: newEmail });
    // The pending change reads back without changing anything (the page shows it after a reload).
    expect((await ann.client.get('/api/gdpr/profile')).json()).toEqual({ email: ann.email, display_name: 'Test User', pending_email: newEmail });

    const [toNew] = await deliver(newEmail, since);
    const [toOld] = await deliver(ann.email, since);
    expect(toNew!.mail.subject).toBe('Confirm your new email address for tradelab');
    expect(toOld!.mail.subject).toBe('Your tradelab email address is being changed');
    expect(toOld!.mail.text).not.toContain('token=');
    const token = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(toNew!.mail.text ?? '')![1]!;

    // Nothing moves before the link is used.
    expect((await ann.client.get('session')).json().email).toBe(ann.email);
    const verified = await new HttpClient(app).get(`email/verify?token=${token}`);
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await ann.client.get('session')).json().email).toBe(newEmail);
    expect((await ann.client.get('/api/gdpr/profile')).json()).toEqual({ email: newEmail, display_name: 'Test User', pending_email: null });
    expect((await new HttpClient(app).get(`email/verify?token=${token}`)).json().error).toBe('link_used');
  });

  it('the link lasts 15 minutes; an address another account holds when the link is used is 409 email_taken', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const carol = await signedInAccount(new HttpClient(app), db());
    let since = smtp.received.length;
    // Asking for a taken address tells nothing at once; the link then refuses.
    expect((await patch(ann, { email: carol.email, credential: await stepUpAssertion(ann) })).json().pending_email).toBe(carol.email);
    const [link] = await deliver(carol.email, since);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(link!.mail.text ?? '')![1]!;
    const taken = await new HttpClient(app).get(`email/verify?token=${token}`);
    expect({ status: taken.statusCode, error: taken.json().error }).toEqual({ status: 409, error: 'email_taken' });
    expect((await ann.client.get('session')).json().email).toBe(ann.email);

    since = smtp.received.length;
    const later = uniqueEmail('later');
    expect((await patch(ann, { email: later, credential: await stepUpAssertion(ann) })).statusCode).toBe(200);
    const [late] = await deliver(later, since);
    const lateToken = /token=([A-Za-z0-9_-]{43})/.exec(late!.mail.text ?? '')![1]!;
    clock.advance(15 * MINUTE);
    expect((await ann.client.get('/api/gdpr/profile')).json().pending_email).toBeNull();
    expect((await new HttpClient(app).get(`email/verify?token=${lateToken}`)).json().error).toBe('link_expired');
    expect((await ann.client.get('session')).json().email).toBe(ann.email);
  });
});
