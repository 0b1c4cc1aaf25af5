import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { SETTLE_INTERVAL_MS } from '../../src/admin/breach.job.js';
import { OPERATOR_EMAIL } from '../../src/auth/operator.js';
import { HOUR, isoNow } from '../../src/platform/clock.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { register, newAuthenticator, signedInAccount, uniqueEmail } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { silentLogger } from '../platform/jobs/fixtures/support.js';
import { startSmtpServer, type TestSmtpServer } from '../platform/mail/smtp-test-server.js';
import { freshStepUp, signedInAdmin } from './admin-kit.js';
import { breachHandlers } from './fixtures/breach-handlers.js';
import type { BreachWorkerSettings } from './fixtures/breach-worker.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BREACH_WORKER = fileURLToPath(new URL('./fixtures/breach-worker.ts', import.meta.url));
const LEASE_MS = 30_000;
const SUBJECT = 'Important: a security incident at tradelab that concerns your account';

describeEachDialect('the breach runbook (POST /api/admin/breach/notify)', (database) => {
  const clock = new ManualClock('2026-05-04T08:00:00.000Z');
  const db = () => database().handle.db;
  let app: App;
  let smtp: TestSmtpServer;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    smtp = await startSmtpServer();
  });
  afterEach(() => {
    child?.kill('SIGKILL');
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const breachMails = () => smtp.received.filter((r) => r.mail.subject === SUBJECT);

  /** A worker in this process, with the same handlers: runs every due job, moving the clock past leases and re-checks. */
  async function runSurvivorUntil(done: () => Promise<boolean>): Promise<void> {
    const { handlers, close } = breachHandlers({ db: db(), clock, smtpUrl: smtp.url });
    const survivor = new JobWorker({ db: db(), dialect: database().handle.dialect, clock, logger: silentLogger, leaseMs: LEASE_MS, handlers });
    try {
      for (let round = 0; round < 20 && !(await done()); round += 1) {
        while ((await survivor.runOnce()) !== undefined);
        clock.advance(Math.max(LEASE_MS, SETTLE_INTERVAL_MS));
      }
    } finally {
      close();
    }
  }

  async function incident(admin: HttpClient, id: string) {
    const list = await admin.get('/api/admin/breach');
    expect(list.statusCode, list.body).toBe(200);
    return list.json().find((i: { id: string }) => i.id === id);
  }

  it('mails every affected verified address exactly once through a worker killed mid-run; a second notify mails nobody', async () => {
    const admin = await signedInAdmin(app, db(), clock);
    const users = [];
    for (let i = 0; i < 5; i += 1) users.push(await signedInAccount(new HttpClient(app), db()));
    // Not mailed: an unverified account, and the AUTH_V1=off operator even if it were verified.
    expect((await register(new HttpClient(app), newAuthenticator(), uniqueEmail('unverified'))).statusCode).toBe(201);
    await db().insertInto('users').values({ id: crypto.randomUUID(), email: OPERATOR_EMAIL, email_verified_at: isoNow(clock), display_name: null, role: 'user', created_at: isoNow(clock), webauthn_user_id: 'op' }).execute();
    await db().deleteFrom('jobs').execute();
    const expected = [admin.email, ...users.map((u) => u.email)].sort();

    // Without an assertion: 403 with the options to make one, and nothing recorded.
    const body = { summary: 'A copy of the sessions table was readable by another tenant for two hours.', severity: 'high', affected: 'all', detected_at: '2026-05-04T02:00:00.000Z' };
    const unconfirmed = await admin.client.post('/api/admin/breach/notify', body);
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json()).toMatchObject({ error: 'step_up_required', options: { challenge: expect.any(String) } });
    // Another account's passkey is no step-up for the admin.
    const foreign = await users[0]!.client.post('step-up/options');
    const refused = await admin.client.post('/api/admin/breach/notify', { ...body, credential: users[0]!.authenticator.getAssertion(foreign.json()) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('challenge_invalid');
    expect(await db().selectFrom('breach_incidents').selectAll().execute()).toEqual([]);

    const accepted = await admin.client.post('/api/admin/breach/notify', { ...body, credential: await freshStepUp(admin) });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { incident_id: incidentId } = accepted.json();
    expect(accepted.json()).toEqual({ incident_id: incidentId, authority_deadline_at: '2026-05-07T02:00:00.000Z', status: 'notifying' });
    expect(await db().selectFrom('audit_entries').select(['actor_user_id', 'target_id']).where('action', '=', 'breach.notify').execute()).toEqual([
      { actor_user_id: admin.userId, target_id: incidentId },
    ]);
    expect(await incident(admin.client, incidentId)).toMatchObject({ status: 'notifying', to_mail: expected.length, queued: 0, mailed: 0, severity: 'high', affected: 'all' });

    // A worker in its own process fans out and delivers; the third delivery hangs mid-SMTP and the process is killed.
    smtp.holdAfter = 2;
    const settings: BreachWorkerSettings = { database: database().connectionOptions, smtpUrl: smtp.url, now: isoNow(clock), leaseMs: LEASE_MS, workerId: 'doomed' };
    child = spawn(process.execPath, ['--import', 'tsx', BREACH_WORKER, JSON.stringify(settings)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    await smtp.held;
    child.kill('SIGKILL');
    expect((await once(child, 'exit'))[1]).toBe('SIGKILL');
    expect(breachMails()).toHaveLength(2);
    const midway = await incident(admin.client, incidentId);
    expect(midway).toMatchObject({ status: 'notifying', queued: expected.length, mailed: 2 });
    const orphan = await db().selectFrom('jobs').select(['state', 'lease_owner']).where('kind', '=', 'mail.send').where('state', '=', 'running').execute();
    expect(orphan).toEqual([{ state: 'running', lease_owner: 'doomed' }]);

    await runSurvivorUntil(async () => (await incident(admin.client, incidentId)).status === 'notified');
    const mailed = breachMails();
    expect(mailed.map((m) => m.envelope.to[0]).sort()).toEqual(expected);
    expect(new Set(mailed.map((m) => m.mail.messageId)).size).toBe(expected.length);
    expect(mailed[0]!.mail.text).toContain('What happened: A copy of the sessions table');
    expect(mailed[0]!.mail.text).toContain('What to do:');
    expect(await incident(admin.client, incidentId)).toMatchObject({ status: 'notified', queued: expected.length, mailed: expected.length, notified_at: expect.any(String) });
    expect(await db().selectFrom('audit_entries').select('target_id').where('action', '=', 'breach.notified').execute()).toEqual([{ target_id: incidentId }]);

    // The same incident again: audited, answered `notified`, nobody mailed twice.
    const again = await admin.client.post('/api/admin/breach/notify', { incident_id: incidentId, credential: await freshStepUp(admin) });
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toEqual({ incident_id: incidentId, authority_deadline_at: '2026-05-07T02:00:00.000Z', status: 'notified' });
    clock.advance(HOUR);
    await runSurvivorUntil(async () => false);
    expect(breachMails()).toHaveLength(expected.length);
  });

  it('resumes an incident whose runbook stopped (incident_id), mailing only whom it has not mailed; validates the body', async () => {
    const admin = await signedInAdmin(app, db(), clock);
    const [ann, bob] = [await signedInAccount(new HttpClient(app), db()), await signedInAccount(new HttpClient(app), db())];
    await db().deleteFrom('jobs').execute();
    const before = breachMails().length;

    const accepted = await admin.client.post('/api/admin/breach/notify', {
      summary: 'Two accounts’ strategy names were shown to another user.',
      severity: 'low',
      affected: [ann!.userId, bob!.userId],
      credential: await freshStepUp(admin),
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { incident_id: incidentId, authority_deadline_at } = accepted.json();
    expect(authority_deadline_at).toBe(new Date(clock.now().getTime() + 72 * HOUR).toISOString());
    // The runbook's job is lost (as if buried after its last attempt): nothing goes out.
    await db().deleteFrom('jobs').execute();
    await runSurvivorUntil(async () => false);
    expect(await incident(admin.client, incidentId)).toMatchObject({ status: 'notifying', to_mail: 2, queued: 0, mailed: 0 });

    const resumed = await admin.client.post('/api/admin/breach/notify', { incident_id: incidentId, credential: await freshStepUp(admin) });
    expect(resumed.json()).toMatchObject({ incident_id: incidentId, status: 'notifying' });
    await runSurvivorUntil(async () => (await incident(admin.client, incidentId)).status === 'notified');
    expect(breachMails().slice(before).map((m) => m.envelope.to[0]).sort()).toEqual([ann!.email, bob!.email].sort());

    const bad = [
      { summary: 'too short', severity: 'low', affected: 'all' },
      { summary: 'A long enough summary here', severity: 'catastrophic', affected: 'all' },
      { summary: 'A long enough summary here', severity: 'low', affected: ['not-a-uuid'] },
      { summary: 'A long enough summary here', severity: 'low', affected: [crypto.randomUUID()], credential: await freshStepUp(admin) },
      { summary: 'A long enough summary here', severity: 'low', affected: 'all', detected_at: '2099-01-01T00:00:00Z', credential: await freshStepUp(admin) },
      { incident_id: crypto.randomUUID(), credential: await freshStepUp(admin) },
    ];
    const statuses = [];
    for (const body of bad) statuses.push((await admin.client.post('/api/admin/breach/notify', body)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 404]);
  });
});
