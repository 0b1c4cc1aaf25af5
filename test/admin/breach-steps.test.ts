import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { breachNotifyJob } from '../../src/admin/breach.job.js';
import { BREACH_NOTIFY_JOB } from '../../src/admin/breach.service.js';
import { FEATURE_PURGES } from '../../src/job-runner.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { purgeExpiredRecords } from '../../src/platform/retention/housekeeping.job.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { signedInAccount, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { stepUpAssertion } from '../privacy/privacy-kit.js';
import { freshStepUp, signedInAdmin } from './admin-kit.js';

const SUBJECT = 'Important: a security incident at tradelab that concerns your account';

describeEachDialect('the breach runbook after the mailing: steps, quiet incidents, duplicates, erased accounts', (database) => {
  const clock = new ManualClock('2026-07-01T08:00:00.000Z');
  const db = () => database().handle.db;
  let app: App;
  let admin: SignedInAccount;
  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    admin = await signedInAdmin(app, db(), clock);
  });
  afterAll(async () => app?.close());

  /** Runs the queued fan-out jobs through the real handler (no delivery needed: the outbox rows are the mails). */
  async function runFanOut(): Promise<void> {
    const handler = breachNotifyJob({ db: db(), clock, publicOrigin: TEST_ORIGIN });
    const jobs = await db().selectFrom('jobs').select(['id', 'payload']).where('kind', '=', BREACH_NOTIFY_JOB).where('state', '=', 'queued').execute();
    for (const job of jobs) {
      await handler({ id: job.id, kind: BREACH_NOTIFY_JOB, payload: JSON.parse(job.payload), attempt: 1, signal: new AbortController().signal });
      await db().updateTable('jobs').set({ state: 'done' }).where('id', '=', job.id).execute();
    }
  }
  const breachMailsTo = async (address: string) =>
    (await db().selectFrom('mail_outbox').select('to_address').where('subject', '=', SUBJECT).where('to_address', '=', address).execute()).length;

  async function notify(body: Record<string, unknown>) {
    return admin.client.post('/api/admin/breach/notify', { ...body, credential: await freshStepUp(admin) });
  }
  async function listed(id: string) {
    const list = await admin.client.get('/api/admin/breach');
    expect(list.statusCode, list.body).toBe(200);
    return list.json().find((incident: { id: string }) => incident.id === id);
  }

  it('records the authority’s notice, notes and the close as steps (audited, with a note and a time) and shows them in GET breach', async () => {
    const accepted = await notify({ summary: 'A log file with addresses was public for an hour.', severity: 'medium', affected: [admin.userId] });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const id = accepted.json().incident_id;
    const steps = `/api/admin/breach/${id}/steps`;

    // Still mailing: it cannot be closed yet.
    const early = await admin.client.post(steps, { step: 'closed', note: 'Done.' });
    expect({ status: early.statusCode, error: early.json().error }).toEqual({ status: 409, error: 'incident_notifying' });

    // Bad input: 400, nothing recorded.
    for (const body of [
      { step: 'reopened', note: 'x' },
      { step: 'note' },
      { step: 'note', note: '' },
      { step: 'note', note: 'Later.', at: 'yesterday' },
      { step: 'note', note: 'From the future.', at: '2099-01-01T00:00:00Z' },
      { step: 'note', note: 'Extra.', extra: true },
    ]) {
      const refused = await admin.client.post(steps, body);
      expect({ body, status: refused.statusCode }).toEqual({ body, status: 400 });
    }
    expect((await admin.client.post(`/api/admin/breach/${crypto.randomUUID()}/steps`, { step: 'note', note: 'Nobody here.' })).statusCode).toBe(404);
    const bob = await signedInAccount(new HttpClient(app), db());
    expect((await bob.client.post(steps, { step: 'note', note: 'Not an admin.' })).statusCode).toBe(403);

    const told = await admin.client.post(steps, { step: 'authority_notified', note: 'Reported to the authority, case 2026-117.', at: '2026-07-01T07:30:00.000Z' });
    expect(told.statusCode, told.body).toBe(201);
    expect(told.json()).toEqual({
      step: 'authority_notified',
      note: 'Reported to the authority, case 2026-117.',
      at: '2026-07-01T07:30:00.000Z',
      recorded_at: clock.now().toISOString(),
      recorded_by: admin.userId,
    });
    const twice = await admin.client.post(steps, { step: 'authority_notified', note: 'Again?' });
    expect({ status: twice.statusCode, error: twice.json().error }).toEqual({ status: 409, error: 'step_already_recorded' });

    await runFanOut();
    await db().updateTable('mail_outbox').set({ sent_at: clock.now().toISOString() }).where('subject', '=', SUBJECT).execute();
    await db().updateTable('breach_incidents').set({ status: 'notified' }).where('id', '=', id).execute();
    clock.advance(HOUR);
    expect((await admin.client.post(steps, { step: 'note', note: 'Post-mortem written.' })).statusCode).toBe(201);
    const closed = await admin.client.post(steps, { step: 'closed', note: 'Contained, everyone told.' });
    expect(closed.statusCode, closed.body).toBe(201);
    const afterClose = await admin.client.post(steps, { step: 'closed', note: 'Closing again.' });
    expect({ status: afterClose.statusCode, error: afterClose.json().error }).toEqual({ status: 409, error: 'incident_closed' });
    // A closed incident cannot be mailed again, but may still be annotated.
    const resume = await notify({ incident_id: id });
    expect({ status: resume.statusCode, error: resume.json().error }).toEqual({ status: 409, error: 'incident_closed' });
    expect((await admin.client.post(steps, { step: 'note', note: 'The authority closed its case.' })).statusCode).toBe(201);

    const incident = await listed(id);
    expect(incident.status).toBe('closed');
    expect(incident.steps.map((s: { step: string; note: string }) => [s.step, s.note])).toEqual([
      ['authority_notified', 'Reported to the authority, case 2026-117.'],
      ['note', 'Post-mortem written.'],
      ['closed', 'Contained, everyone told.'],
      ['note', 'The authority closed its case.'],
    ]);
    const audited = await db().selectFrom('audit_entries').select(['actor_user_id', 'context']).where('action', '=', 'breach.step').where('target_id', '=', id).orderBy('id').execute();
    expect(audited.map((row) => [row.actor_user_id, JSON.parse(row.context!).step])).toEqual([
      [admin.userId, 'authority_notified'],
      [admin.userId, 'note'],
      [admin.userId, 'closed'],
      [admin.userId, 'note'],
    ]);
    // The list itself is an admin read, and on record.
    expect(await db().selectFrom('audit_entries').select('id').where('action', '=', 'admin.breach_read').where('actor_user_id', '=', admin.userId).execute()).not.toHaveLength(0);
  });

  it('records a low-severity incident without mailing anyone (notify_users: false); mailing it later is a resume; only low may stay quiet', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const quiet = await notify({ summary: 'A debug page showed one strategy name to its own owner twice.', severity: 'low', affected: [ann.userId], notify_users: false });
    expect(quiet.statusCode, quiet.body).toBe(202);
    expect(quiet.json()).toMatchObject({ status: 'open' });
    const id = quiet.json().incident_id;
    await runFanOut();
    expect(await breachMailsTo(ann.email)).toBe(0);
    expect(await listed(id)).toMatchObject({ status: 'open', queued: 0, to_mail: 1 });
    expect(JSON.parse((await db().selectFrom('audit_entries').select('context').where('action', '=', 'breach.notify').where('target_id', '=', id).executeTakeFirstOrThrow()).context!)).toMatchObject({ notify_users: false });

    const loud = await notify({ summary: 'The whole user table was copied by an attacker.', severity: 'high', affected: 'all', notify_users: false });
    expect({ status: loud.statusCode, error: loud.json().error }).toEqual({ status: 400, error: 'validation_failed' });

    // Judged worth telling after all: resuming it mails the affected people.
    expect((await notify({ incident_id: id })).json()).toMatchObject({ incident_id: id, status: 'notifying' });
    await runFanOut();
    expect(await breachMailsTo(ann.email)).toBe(1);
  });

  it('merges a second identical notification into the open incident: one incident, one mail each', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const body = { summary: 'An export bundle was served to the wrong account.', severity: 'high', affected: [ann.userId, admin.userId] };
    const first = await notify(body);
    const second = await notify({ ...body, affected: [admin.userId, ann.userId] });
    expect(second.statusCode, second.body).toBe(202);
    expect(second.json()).toMatchObject({ incident_id: first.json().incident_id, merged: true });
    expect(await db().selectFrom('breach_incidents').select('id').where('summary', '=', body.summary).execute()).toHaveLength(1);
    await runFanOut();
    expect(await breachMailsTo(ann.email)).toBe(1);
    // Another severity is another incident.
    const other = await notify({ ...body, severity: 'medium' });
    expect(other.json().incident_id).not.toBe(first.json().incident_id);
  });

  it('mails an erased account not yet purged at its last verified address (its data is still held)', async () => {
    const erased = await signedInAccount(new HttpClient(app), db());
    expect((await erased.client.post('/api/gdpr/erase', { credential: await stepUpAssertion(erased) })).statusCode).toBe(202);
    const accepted = await notify({ summary: 'A database backup was left readable for a day.', severity: 'high', affected: [erased.userId] });
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect(await listed(accepted.json().incident_id)).toMatchObject({ to_mail: 1 });
    await runFanOut();
    expect(await breachMailsTo(erased.email)).toBe(1);
  });

  it('refuses a leap second (valid RFC 3339, not a time Date can hold) with a 400 instead of failing in the handler', async () => {
    const accepted = await notify({ summary: 'A leap-second probe of the runbook steps.', severity: 'low', affected: [admin.userId], notify_users: false });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const step = await admin.client.post(`/api/admin/breach/${accepted.json().incident_id}/steps`, { step: 'note', note: 'x', at: '2020-12-31T23:59:60Z' });
    expect({ status: step.statusCode, error: step.json().error }).toEqual({ status: 400, error: 'validation_failed' });
    const audit = await admin.client.get('/api/admin/audit?from=2016-12-31T23:59:60Z');
    expect({ status: audit.statusCode, error: audit.json().error }).toEqual({ status: 400, error: 'validation_failed' });
    const leapNotice = await notify({ summary: 'A leap-second probe of detected_at.', severity: 'high', affected: [admin.userId], detected_at: '2016-12-31T23:59:60Z' });
    expect({ status: leapNotice.statusCode, error: leapNotice.json().error }).toEqual({ status: 400, error: 'validation_failed' });
  });

  it('keeps a closed incident five years after its close, then housekeeping deletes it with its steps; one never closed stays', async () => {
    const closedIds = (await db().selectFrom('breach_incidents').select('id').where('status', '=', 'closed').execute()).map((r) => r.id);
    const unclosed = await db().selectFrom('breach_incidents').select('id').where('status', '!=', 'closed').execute();
    expect(closedIds.length).toBeGreaterThan(0);
    clock.advance(5 * 365 * DAY - DAY);
    expect((await purgeExpiredRecords(db(), clock, FEATURE_PURGES)).breach_incidents).toBe(0);
    clock.advance(2 * DAY);
    expect((await purgeExpiredRecords(db(), clock, FEATURE_PURGES)).breach_incidents).toBe(closedIds.length);
    expect(await db().selectFrom('breach_incident_steps').select('id').where('incident_id', 'in', closedIds).execute()).toEqual([]);
    expect(await db().selectFrom('breach_incidents').select('id').where('status', '!=', 'closed').execute()).toEqual(unclosed);
  });

});
