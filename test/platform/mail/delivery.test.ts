import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser, type AddressObject } from 'mailparser';
import { beforeEach, expect, it, onTestFinished } from 'vitest';
import { capturingLogger } from '../../helpers/app.js';
import { describeEachDialect, type TestDatabase } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { startSmtpServer, unusedSmtpUrl, type TestSmtpServer } from './smtp-test-server.js';
import { enqueueJob } from '../../../src/platform/jobs/jobs.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { renderMail } from '../../../src/platform/mail/layout.js';
import { queueMail, SEND_MAIL_JOB } from '../../../src/platform/mail/outbox.js';
import { sendMailJob } from '../../../src/platform/mail/send-mail.job.js';
import { createMailTransport } from '../../../src/platform/mail/transport.js';

const FROM = 'tradelab <no-reply@tradelab.test>';
const SUBJECT = 'Confirm your email address';
const BODIES = renderMail({
  heading: 'Welcome to tradelab',
  paragraphs: ['Confirm your address to finish signing up. Terms & conditions apply.'],
  action: { label: 'Confirm my address', url: 'https://tradelab.test/verify?token=abc&next=%2F' },
});

/** These mails carry no link, so nothing is ever minted. */
const noLinks = async (): Promise<never> => {
  throw new Error('no mail in these tests carries a link');
};

/** The worker the `worker` process runs, with only the mail handler, on one transport. */
function mailWorker(
  database: TestDatabase,
  clock: ManualClock,
  options: { smtpUrl: string | null; mailDir?: string; logger?: FastifyBaseLogger },
) {
  const { db, dialect } = database.handle;
  const logger = options.logger ?? pino({ level: 'silent' });
  const transport = createMailTransport({ smtpUrl: options.smtpUrl, mailDir: options.mailDir ?? os.tmpdir(), logger });
  onTestFinished(() => transport.close());
  const handler = sendMailJob({ db, clock, transport, from: FROM, mintLinkToken: noLinks });
  const worker = new JobWorker({ db, dialect, clock, logger, handlers: { [SEND_MAIL_JOB]: handler } });
  return { worker, handler };
}

/** As a feature does it: the mail is queued in the transaction of the change that causes it. */
async function queueConfirmation(database: TestDatabase, clock: ManualClock): Promise<string> {
  return database.handle.db
    .transaction()
    .execute((trx) => queueMail(trx, clock, { to: 'jane@example.com', subject: SUBJECT, ...BODIES }));
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((address) => address.address ?? ''));
}

describeEachDialect('mail delivery over SMTP', (db) => {
  let smtp: TestSmtpServer;

  beforeEach(async () => {
    const { db: kysely } = db().handle;
    await kysely.deleteFrom('jobs').execute();
    await kysely.deleteFrom('mail_outbox').execute();
    smtp = await startSmtpServer();
    return () => smtp.close();
  });

  async function outboxRow(id: string) {
    return db().handle.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function theMailJob() {
    return db().handle.db.selectFrom('jobs').selectAll().where('kind', '=', SEND_MAIL_JOB).executeTakeFirstOrThrow();
  }

  it('delivers a queued mail to the SMTP server with both bodies and marks the outbox row sent', async () => {
    const clock = new ManualClock();
    const outboxId = await queueConfirmation(db(), clock);
    const { worker } = mailWorker(db(), clock, { smtpUrl: smtp.url });

    expect(await worker.runUntilIdle()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const { envelope, mail } = smtp.received[0]!;
    expect(envelope).toEqual({ from: 'no-reply@tradelab.test', to: ['jane@example.com'] });
    expect(mail.from?.value).toEqual([{ name: 'tradelab', address: 'no-reply@tradelab.test' }]);
    expect(addresses(mail.to)).toEqual(['jane@example.com']);
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.messageId).toBe(`<${outboxId}@tradelab.test>`);
    expect(mail.text?.trimEnd()).toBe(BODIES.text);
    expect(mail.html).toBe(BODIES.html);
    expect(mail.text).toContain('Confirm my address: https://tradelab.test/verify?token=abc&next=%2F');
    expect(mail.html).toContain('href="https://tradelab.test/verify?token=abc&amp;next=%2F"');

    expect(await outboxRow(outboxId)).toMatchObject({ sent_at: clock.now().toISOString(), text_body: '', html_body: '' });
    expect(await theMailJob()).toMatchObject({ state: 'done', attempts: 1, last_error: null });
  });

  it('sends a mail once even when its job runs again or a duplicate job is queued', async () => {
    const clock = new ManualClock();
    const outboxId = await queueConfirmation(db(), clock);
    const { worker, handler } = mailWorker(db(), clock, { smtpUrl: smtp.url });
    await worker.runUntilIdle();
    const sentAt = (await outboxRow(outboxId)).sent_at;
    expect(smtp.received).toHaveLength(1);

    clock.advance(60_000);
    await enqueueJob(db().handle.db, clock, SEND_MAIL_JOB, { outboxId });
    expect(await worker.runUntilIdle()).toBe(1);
    const rerun = { id: 'rerun', kind: SEND_MAIL_JOB, payload: { outboxId }, attempt: 2, signal: new AbortController().signal };
    await handler(rerun);

    expect(smtp.received).toHaveLength(1);
    expect((await outboxRow(outboxId)).sent_at).toBe(sentAt);
  });

  it('puts the job back in the queue when the server refuses the mail, and delivers it on the retry', async () => {
    const clock = new ManualClock();
    const outboxId = await queueConfirmation(db(), clock);
    const { worker } = mailWorker(db(), clock, { smtpUrl: smtp.url });
    smtp.refuseRecipients = true;

    expect(await worker.runOnce()).toBe('retry');

    expect(smtp.received).toEqual([]);
    expect((await outboxRow(outboxId)).sent_at).toBeNull();
    const job = await theMailJob();
    expect(job).toMatchObject({ state: 'queued', attempts: 1, lease_owner: null });
    expect(job.last_error).toMatch(/550 mailbox unavailable/);
    expect(job.run_at).toBe(new Date(clock.now().getTime() + 5_000).toISOString());

    smtp.refuseRecipients = false;
    expect(await worker.runUntilIdle()).toBe(0); // not due yet
    clock.advance(5_000);
    expect(await worker.runUntilIdle()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(await theMailJob()).toMatchObject({ state: 'done', attempts: 2, last_error: null });
  });

  it('puts the job back in the queue when no SMTP server is listening', async () => {
    const clock = new ManualClock();
    const outboxId = await queueConfirmation(db(), clock);
    const { worker } = mailWorker(db(), clock, { smtpUrl: await unusedSmtpUrl() });

    expect(await worker.runOnce()).toBe('retry');

    expect((await outboxRow(outboxId)).sent_at).toBeNull();
    const job = await theMailJob();
    expect(job).toMatchObject({ state: 'queued', attempts: 1 });
    expect(job.last_error).toMatch(/ECONNREFUSED/);
  });
});

describeEachDialect('mail without SMTP_URL', (db) => {
  it('writes each mail to <outboxId>.eml in the mail dir and names the file in one log line', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-mail-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const mailDir = path.join(dataDir, 'mail'); // created on the first mail
    const log = capturingLogger();
    const clock = new ManualClock();
    const outboxId = await queueConfirmation(db(), clock);
    const { worker } = mailWorker(db(), clock, { smtpUrl: null, mailDir, logger: log.logger });

    expect(await worker.runUntilIdle()).toBe(1);

    const file = path.join(mailDir, `${outboxId}.eml`);
    expect(fs.readdirSync(mailDir)).toEqual([`${outboxId}.eml`]);
    const mail = await simpleParser(fs.readFileSync(file));
    expect(mail.subject).toBe(SUBJECT);
    expect(addresses(mail.to)).toEqual(['jane@example.com']);
    expect(mail.text?.trimEnd()).toBe(BODIES.text);
    expect(mail.html).toBe(BODIES.html);
    expect(log.lines().filter((line) => JSON.stringify(line).includes(file))).toHaveLength(1);
    const sent = await db().handle.db.selectFrom('mail_outbox').select('sent_at').where('id', '=', outboxId).executeTakeFirstOrThrow();
    expect(sent.sent_at).toBe(clock.now().toISOString());
  });
});
