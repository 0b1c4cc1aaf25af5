import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildJobHandlers } from '../../src/job-runner.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { queueMail } from '../../src/platform/mail/outbox.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { silentLogger } from '../platform/jobs/fixtures/support.js';
import { startSmtpServer, type TestSmtpServer } from '../platform/mail/smtp-test-server.js';

describeEachDialect('SMTP down for a while', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-09-01T08:00:00.000Z');
  let app: App;
  let smtp: TestSmtpServer;
  let close: () => void;
  let worker: JobWorker;
  /** The relay's port, as the service is configured: a relay coming back comes back there. */
  let port: number;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    port = Number(new URL(smtp.url).port);
    app = await buildTestApp(database().handle, { clock, env: { SMTP_URL: smtp.url } });
    const jobs = buildJobHandlers(app.platform);
    close = jobs.close;
    worker = new JobWorker({ db: db(), dialect: app.platform.dialect, clock, logger: silentLogger, handlers: jobs.handlers });
  });
  afterEach(async () => smtp?.close());
  afterAll(async () => {
    close?.();
    await app?.close();
  });

  /** The worker polling once a second, on the test's clock, for `seconds`. */
  async function runWorkerFor(seconds: number): Promise<void> {
    for (let s = 0; s < seconds; s += 1) {
      await worker.runUntilIdle();
      clock.advance(1_000);
    }
  }

  it('keeps mail in the outbox while the relay is down and sends each once as soon as it is back, the backlog oldest first', async () => {
    await smtp.close();

    // Mail keeps coming during a 3-minute outage; every delivery attempt fails and is retried with backoff.
    const queued: string[] = [];
    for (let n = 1; n <= 6; n += 1) {
      const to = `reader-${n}@example.com`;
      await queueMail(db(), clock, { to, subject: `Mail ${n}`, text: `body ${n}`, html: `<p>body ${n}</p>` });
      queued.push(to);
      await runWorkerFor(30);
    }
    expect(await db().selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute()).toHaveLength(6);
    const waiting = await db().selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', 'mail.send').execute();
    expect(waiting.every((job) => job.state === 'queued' && job.attempts > 0)).toBe(true);

    smtp = await startSmtpServer({ port });
    // Within a few seconds of the relay's return, not at each mail's own next retry (up to a minute away).
    await runWorkerFor(15);

    // Each once; the first to get through is whichever retry fell due first, the backlog then follows oldest first.
    const delivered = smtp.received.map((mail) => mail.envelope.to[0]);
    expect([...delivered].sort()).toEqual([...queued].sort());
    expect(delivered.slice(1)).toEqual(queued.filter((to) => to !== delivered[0]));
    expect(await db().selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute()).toEqual([]);
    expect(await db().selectFrom('jobs').select('state').where('kind', '=', 'mail.send').where('state', '!=', 'done').execute()).toEqual([]);
    // Once: nothing more goes out later.
    await runWorkerFor(120);
    expect(smtp.received).toHaveLength(6);
  });

  it('leaves a mail the relay refused (not an outage) to its own backoff when other mail goes', async () => {
    await db().deleteFrom('jobs').execute();
    smtp = await startSmtpServer({ port });
    smtp.refuseRecipients = true;
    const refusedAt = clock.now().getTime();
    await queueMail(db(), clock, { to: 'refused@example.com', subject: 'Refused', text: 'r', html: '<p>r</p>' });
    await worker.runUntilIdle();
    smtp.refuseRecipients = false;
    await queueMail(db(), clock, { to: 'welcome@example.com', subject: 'Welcome', text: 'w', html: '<p>w</p>' });
    await worker.runUntilIdle();

    expect(smtp.received.map((mail) => mail.envelope.to[0])).toEqual(['welcome@example.com']);
    const refused = await db().selectFrom('jobs').select(['state', 'run_at']).where('state', '=', 'queued').execute();
    expect(refused).toEqual([{ state: 'queued', run_at: new Date(refusedAt + 5_000).toISOString() }]);
  });
});
