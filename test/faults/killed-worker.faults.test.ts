import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { systemClock } from '../../src/platform/clock.js';
import type { Db } from '../../src/platform/db/database.js';
import { EXPORT_JOB } from '../../src/privacy/exports.service.js';
import { HOUSEKEEPING_JOB } from '../../src/platform/retention/housekeeping.job.js';
import { queueMail, SEND_MAIL_JOB } from '../../src/platform/mail/outbox.js';
import { buildTestApp } from '../helpers/app.js';
import { signedInAccount, uniqueEmail, type SignedInAccount } from '../helpers/accounts.js';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';
import { startSmtpServer, type TestSmtpServer } from '../platform/mail/smtp-test-server.js';
import { freshStepUp, signedInAdmin } from '../admin/admin-kit.js';
import { GDPR } from '../privacy/privacy-kit.js';
import { bar, placeOrder, portfolioOf, seedBars } from '../trading/trading-kit.js';
import { letLeasesAndBackoffsRunOut, startCli, waitUntil, type CliProcess } from './support/processes.js';
import { holdRowLock, isBlockingSomeone, type RowLock } from './support/row-lock.js';

/**
 * Each job kind with a real `tradelab worker` process (resting-limit fills: the `import-bars` command) killed with
 * SIGKILL in the middle, held there from outside: an SMTP server that takes the message and never answers, or a
 * row lock of the test's own that the job's write waits on. Then a second process takes over (the first one's
 * lease run out) and every effect is there exactly once. On PostgreSQL, where row locks can hold one job mid-way
 * (SQLite's single write lock would hold the job's claim too); the SQLite crash windows are covered by
 * test/platform/jobs/crash-recovery.test.ts, test/privacy/export-crash.test.ts and test/admin/breach-notify.test.ts.
 */
const title = 'a worker killed with SIGKILL in the middle of each job kind [postgres]';
const suite = POSTGRES_URL ? describe : describe.skip;
if (!POSTGRES_URL) console.warn(`!! ${title}: SKIPPED, TEST_DATABASE_URL not set !!`);

suite(title, () => {
  let database: TestDatabase & { drop(): Promise<void> };
  let db: Db;
  let app: App;
  let smtp: TestSmtpServer;
  let processes: CliProcess[] = [];
  let locks: RowLock[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = database.handle.db;
    app = await buildTestApp(database.handle);
  });
  beforeEach(async () => {
    smtp = await startSmtpServer();
  });
  afterEach(async () => {
    for (const process of processes) await process.kill();
    for (const lock of locks) await lock.release().catch(() => undefined);
    processes = [];
    locks = [];
    await smtp.close();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const env = () => ({ DATABASE_URL: POSTGRES_URL!, DATABASE_SCHEMA: database.handle.schema!, SMTP_URL: smtp.url });
  const cli = (...args: string[]) => {
    const started = startCli(args, env());
    processes.push(started);
    return started;
  };
  const lockRow = async (query: string, values: unknown[]) => {
    const lock = await holdRowLock(POSTGRES_URL!, database.handle.schema!, query, values);
    locks.push(lock);
    return lock;
  };
  /** Until the process is blocked on the lock, mid-job; then SIGKILL and the lock let go. */
  async function killWhenBlocked(doomed: CliProcess, lock: RowLock): Promise<void> {
    await waitUntil('the process blocks on the row lock', () => isBlockingSomeone(POSTGRES_URL!, lock), 30_000);
    await doomed.kill();
    await lock.release();
    locks = locks.filter((l) => l !== lock);
  }
  const receivedBy = (to: string, subject?: string) => smtp.received.filter((r) => r.envelope.to[0] === to && (subject === undefined || r.mail.subject === subject));
  const account = () => signedInAccount(new HttpClient(app), db);

  it('mail: killed while the relay holds the message unanswered; the next worker sends it once', async () => {
    const to = uniqueEmail('killed-mail');
    await db.deleteFrom('jobs').execute();
    const outboxId = await queueMail(db, systemClock, { to, subject: 'Sent once', text: 'one', html: '<p>one</p>' });
    smtp.holdAfter = smtp.received.length;

    const doomed = cli('worker');
    await smtp.held;
    await doomed.kill();
    expect(receivedBy(to)).toEqual([]);
    expect(await db.selectFrom('jobs').select('state').where('kind', '=', SEND_MAIL_JOB).execute()).toEqual([{ state: 'running' }]);

    await letLeasesAndBackoffsRunOut(db);
    cli('worker');
    await waitUntil('the mail is marked sent', async () => (await db.selectFrom('mail_outbox').select('sent_at').where('id', '=', outboxId).executeTakeFirstOrThrow()).sent_at !== null);
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('export: killed with the bundle built and its write blocked; the next worker stores it once, mails once, audits once', async () => {
    const ann = await account();
    const requested = await ann.client.post(`${GDPR}/export`);
    expect(requested.statusCode, requested.body).toBe(202);
    const exportId: string = requested.json().id;
    await db.deleteFrom('jobs').where('kind', '!=', EXPORT_JOB).execute();

    const lock = await lockRow('select id from data_exports where id = $1 for update', [exportId]);
    await killWhenBlocked(cli('worker'), lock);
    expect(await db.selectFrom('data_exports').select(['status', 'bundle']).where('id', '=', exportId).executeTakeFirstOrThrow()).toEqual({ status: 'queued', bundle: null });
    expect(await db.selectFrom('audit_entries').select('id').where('action', '=', 'dsr.export').execute()).toEqual([]);

    await letLeasesAndBackoffsRunOut(db);
    cli('worker');
    const subject = 'Your tradelab data export is ready';
    await waitUntil('the ready mail arrives', () => receivedBy(ann.email, subject).length > 0);
    expect((await ann.client.get(`${GDPR}/exports`)).json()).toEqual([expect.objectContaining({ id: exportId, status: 'ready' })]);
    expect((await ann.client.get(`${GDPR}/exports/${exportId}/download`)).statusCode).toBe(200);
    expect(await db.selectFrom('mail_outbox').select('id').where('to_address', '=', ann.email).where('subject', '=', subject).execute()).toHaveLength(1);
    expect(await db.selectFrom('audit_entries').select('id').where('action', '=', 'dsr.export').execute()).toHaveLength(1);
    expect(receivedBy(ann.email, subject)).toHaveLength(1);
  });

  it('purge: killed with one erased account purged and the next blocked; the next worker purges the rest, each once', async () => {
    const [first, second] = [await account(), await account()] as [SignedInAccount, SignedInAccount];
    // Erased 41 and 40 days ago: purged oldest erasure first.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db.updateTable('users').set({ deleted_at: daysAgo(41) }).where('id', '=', first.userId).execute();
    await db.updateTable('users').set({ deleted_at: daysAgo(40) }).where('id', '=', second.userId).execute();
    const actedBy = async (userId: string) => db.selectFrom('audit_entries').select('id').where('actor_user_id', '=', userId).execute();
    const secondsRows = (await actedBy(second.userId)).map((row) => row.id);
    expect(secondsRows.length).toBeGreaterThan(0);
    await db.deleteFrom('jobs').execute();

    // The worker queues the hourly housekeeping on start and runs it; the second account's purge waits on the lock.
    const lock = await lockRow('select id from users where id = $1 for update', [second.userId]);
    await killWhenBlocked(cli('worker'), lock);
    const remaining = async () => (await db.selectFrom('users').select('id').where('id', 'in', [first.userId, second.userId]).execute()).map((row) => row.id);
    expect(await remaining()).toEqual([second.userId]);
    // Its open transaction was rolled back whole: its audit rows still name it.
    expect(await actedBy(second.userId)).toHaveLength(secondsRows.length);

    await letLeasesAndBackoffsRunOut(db);
    cli('worker');
    await waitUntil('the housekeeping job is done', async () => (await db.selectFrom('jobs').select('state').where('kind', '=', HOUSEKEEPING_JOB).executeTakeFirst())?.state === 'done');
    expect(await remaining()).toEqual([]);
    const hashes = await db.selectFrom('audit_entries').select(['actor_hash']).where('id', 'in', secondsRows).execute();
    expect(new Set(hashes.map((row) => row.actor_hash)).size).toBe(1);
    expect(hashes[0]!.actor_hash).toMatch(/\S/);
    expect(await db.selectFrom('jobs').select(['kind', 'state', 'attempts']).where('kind', '=', HOUSEKEEPING_JOB).execute()).toEqual([{ kind: HOUSEKEEPING_JOB, state: 'done', attempts: 2 }]);
  });

  it('breach mailing: killed mid-delivery of the notices; everyone affected is mailed once and the incident settles once', async () => {
    const admin = await signedInAdmin(app, db, systemClock);
    const affected = [admin, await account(), await account(), await account()];
    const body = { summary: 'Fault suite incident.', severity: 'high', affected: 'all', detected_at: new Date(Date.now() - 3_600_000).toISOString() };
    await db.deleteFrom('jobs').execute();
    const accepted = await admin.client.post('/api/admin/breach/notify', { ...body, credential: await freshStepUp(admin) });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const incidentId: string = accepted.json().incident_id;
    const subject = 'Important: a security incident at tradelab that concerns your account';
    const notices = () => smtp.received.filter((r) => r.mail.subject === subject);
    const everyone = (await db.selectFrom('users').select('email').where('email_verified_at', 'is not', null).where('deleted_at', 'is', null).execute()).map((u) => u.email);

    smtp.holdAfter = smtp.received.length + 2;
    const doomed = cli('worker');
    await smtp.held;
    await doomed.kill();
    expect(notices()).toHaveLength(2);

    await letLeasesAndBackoffsRunOut(db);
    cli('worker');
    const status = async () => (await db.selectFrom('breach_incidents').select('status').where('id', '=', incidentId).executeTakeFirstOrThrow()).status;
    // The settle job looks again every 10 s while mails are out; the test brings its turn forward.
    await waitUntil('the incident is notified', async () => {
      await letLeasesAndBackoffsRunOut(db);
      return (await status()) === 'notified';
    }, 40_000);
    expect(notices().map((r) => r.envelope.to[0]).sort()).toEqual([...everyone].sort());
    for (const person of affected) expect(receivedBy(person.email, subject)).toHaveLength(1);
    expect(await db.selectFrom('audit_entries').select('target_id').where('action', '=', 'breach.notified').execute()).toEqual([{ target_id: incidentId }]);
  });

  it('resting-limit fills: import-bars killed with one order filled and the next blocked; run again, it fills the rest, each once', async () => {
    const symbol = 'KILD';
    await seedBars(db, systemClock, symbol, [bar('2026-03-06', 100)]);
    const [ann, bob] = [await account(), await account()] as [SignedInAccount, SignedInAccount];
    const rest = async (who: SignedInAccount) => {
      const placed = await placeOrder(who.client, { symbol, side: 'buy', qty: 10, order_type: 'limit', limit_price: 95 });
      expect(placed.json(), placed.body).toMatchObject({ status: 'accepted' });
      return placed.json().id as string;
    };
    const [annOrder, bobOrder] = [await rest(ann), await rest(bob)];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-fault-bars-'));
    const csv = path.join(dir, `${symbol}.csv`);
    fs.writeFileSync(csv, 'Date,Open,High,Low,Close,Adj Close,Volume\n2026-03-09,96,97,94,95,95,1000\n');

    // Orders fill oldest first: Ann's commits, Bob's waits on the lock.
    const lock = await lockRow('select id from orders where id = $1 for update', [bobOrder]);
    await killWhenBlocked(cli('import-bars', csv, '--symbol', symbol), lock);
    const statusOf = async (id: string) => (await db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect([await statusOf(annOrder), await statusOf(bobOrder)]).toEqual(['filled', 'accepted']);

    const again = cli('import-bars', csv, '--symbol', symbol);
    expect(await again.exited(), again.output()).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
    expect([await statusOf(annOrder), await statusOf(bobOrder)]).toEqual(['filled', 'filled']);
    for (const [who, order] of [[ann, annOrder], [bob, bobOrder]] as const) {
      const fills = await db.selectFrom('audit_entries').select('id').where('action', '=', 'order.fill').where('target_id', '=', order).execute();
      expect(fills).toHaveLength(1);
      // 10 shares at min(open 96, limit 95) = 950.00, paid once.
      expect((await portfolioOf(who.client)).cash).toBe(100000 - 950);
    }
  });
});
