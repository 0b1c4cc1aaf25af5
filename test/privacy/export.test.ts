import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { FEATURE_PURGES } from '../../src/job-runner.js';
import { appendAudit } from '../../src/platform/audit/audit.js';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { purgeExpiredRecords } from '../../src/platform/retention/housekeeping.job.js';
import { listLiveColumns } from '../../src/platform/db/database.js';
import { BUNDLE_TABLES } from '../../src/privacy/export-bundle.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { mailsTo, signedInAccount, signIn, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { createStrategy, FULL_STRATEGY } from '../strategies/library-kit.js';
import { bar, placeOrder, seedBars } from '../trading/trading-kit.js';
import { GDPR, parseCsv, runExportJobs, unzipText } from './privacy-kit.js';

/** Tables the bundle leaves out on purpose, each with the reason (the rest of the user's tables must be in it). */
const LEFT_OUT = {
  email_verifications: 'link token hashes (secrets); pending changes show as pending_email on the profile',
  webauthn_challenges: 'challenge data (secrets), gone within a minute',
  mail_outbox: 'copies of mails already in the mailbox, bodies blanked once sent',
  data_exports: 'the exports themselves',
  breach_recipients: 'the breach runbook ledger (admin)',
  export_tombstones: 'the ids and expiry of exports whose record is purged, nothing else',
} as const;

describeEachDialect('data rights: export', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-04-01T10:00:00.000Z');
  let app: App;
  let ann: SignedInAccount;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    ann = await signedInAccount(new HttpClient(app), db(), { displayName: 'Ann "the, quoted"\nExample' });
    await createStrategy(ann, { ...FULL_STRATEGY, description: 'commas, "quotes"\r\nand lines' });
    await seedBars(db(), clock, 'AAA', [bar('2026-03-31', 50)]);
    expect((await placeOrder(ann.client, { symbol: 'AAA', side: 'buy', qty: 4 })).statusCode).toBe(201);
    expect((await placeOrder(ann.client, { symbol: 'AAA', side: 'buy', qty: 1, order_type: 'limit', limit_price: 40 })).statusCode).toBe(201);
  });
  afterAll(async () => app?.close());

  async function exportReady(account: SignedInAccount): Promise<string> {
    const queued = await account.client.post(`${GDPR}/export`);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toEqual({ id: expect.any(String), status: 'queued' });
    await runExportJobs(app);
    return queued.json().id;
  }

  it('queues one export at a time (409 export_in_progress), builds it in a job, lists it, mails the link, audits dsr.export', async () => {
    const first = await ann.client.post(`${GDPR}/export`);
    expect(first.statusCode, first.body).toBe(202);
    const again = await ann.client.post(`${GDPR}/export`);
    expect({ status: again.statusCode, error: again.json().error }).toEqual({ status: 409, error: 'export_in_progress' });
    expect((await ann.client.get(`${GDPR}/exports`)).json()).toEqual([
      { id: first.json().id, status: 'queued', requested_at: clock.now().toISOString(), ready_at: null, expires_at: null, byte_size: null },
    ]);
    expect((await ann.client.get(`${GDPR}/exports/${first.json().id}/download`)).json().error).toBe('export_not_ready');

    expect(await runExportJobs(app)).toBe(1);
    const [listed] = (await ann.client.get(`${GDPR}/exports`)).json();
    expect(listed).toMatchObject({ status: 'ready', ready_at: clock.now().toISOString(), expires_at: new Date(clock.now().getTime() + 7 * DAY).toISOString() });
    expect(listed.byte_size).toBeGreaterThan(500);
    const mails = await mailsTo(db(), ann.email);
    expect(mails.at(-1)!.subject).toBe('Your tradelab data export is ready');
    expect(mails.at(-1)!.text_body).toContain('http://localhost:3000/privacy');
    const audit = await db().selectFrom('audit_entries').selectAll().where('action', '=', 'dsr.export').execute();
    expect(audit).toEqual([expect.objectContaining({ actor_user_id: ann.userId, target_kind: 'export', target_id: first.json().id })]);

    // A second run of the same job (at-least-once) changes nothing: no second mail, no second audit row.
    await db().updateTable('jobs').set({ state: 'queued' }).where('kind', '=', 'privacy.export').execute();
    await runExportJobs(app);
    expect(await mailsTo(db(), ann.email)).toHaveLength(mails.length);
    expect(await db().selectFrom('audit_entries').selectAll().where('action', '=', 'dsr.export').execute()).toHaveLength(1);
    // Once it is ready, another export may be asked for.
    expect((await ann.client.post(`${GDPR}/export`)).statusCode).toBe(202);
    await runExportJobs(app);
  });

  it('the bundle: README.txt, data.json with everything, one CSV per table that parses, no secret anywhere', async () => {
    const id = await exportReady(ann);
    const download = await ann.client.get(`${GDPR}/exports/${id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="tradelab-data-2026-04-01\.zip"$/);
    expect(download.headers['cache-control']).toBe('no-store');
    const files = unzipText(download.rawPayload);
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'data.json', ...BUNDLE_TABLES.map((t) => t.file)].sort());
    for (const table of BUNDLE_TABLES) expect(files['README.txt']).toContain(table.file);

    const data = JSON.parse(files['data.json']!);
    expect(data.profile).toEqual([expect.objectContaining({ id: ann.userId, email: ann.email, display_name: 'Ann "the, quoted"\nExample' })]);
    expect(data.passkeys).toEqual([expect.objectContaining({ id: ann.credentialId })]);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.strategies).toEqual([expect.objectContaining({ name: FULL_STRATEGY.name, description: 'commas, "quotes"\r\nand lines' })]);
    // The options fields (issue 27) as stored: the spec's JSON text, the volatility index's ticker.
    expect(data.strategies[0]).toMatchObject({ options_spec: JSON.stringify(FULL_STRATEGY.options_spec), volatility_symbol: 'VIX' });
    expect(data.orders.map((o: { status: string }) => o.status).sort()).toEqual(['accepted', 'filled']);
    expect(data.paper_account).toHaveLength(1);
    expect(data.paper_positions).toEqual([expect.objectContaining({ symbol: 'AAA', qty: 4 })]);
    expect(data.audit_entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['user.register', 'session.issue', 'order.submit', 'dsr.export']));

    for (const table of BUNDLE_TABLES) {
      const rows = parseCsv(files[table.file]!);
      expect(rows.length, table.file).toBe(data[table.key].length + 1);
      // The CSV holds the same values as data.json.
      const header = rows[0]!;
      rows.slice(1).forEach((row, i) => {
        const json = data[table.key][i] as Record<string, unknown>;
        expect(header).toEqual(Object.keys(json));
        header.forEach((column, c) => {
          const value = json[column];
          expect(row[c], `${table.file} ${column}`).toBe(value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : csvText(value));
        });
      });
    }
    expect(parseCsv(files['strategies.csv']!)[1]).toContain('commas, "quotes"\r\nand lines');

    // No secret column, no secret value.
    const everything = Object.values(files).join('\n');
    const columns = new Set(BUNDLE_TABLES.flatMap((t) => parseCsv(files[t.file]!)[0]!));
    for (const secret of ['public_key', 'token_hash', 'request_hash', 'challenge', 'key_bytes', 'bundle']) expect(columns.has(secret), secret).toBe(false);
    const sessions = await db().selectFrom('sessions').select('id').where('user_id', '=', ann.userId).execute();
    const keys = await db().selectFrom('passkey_credentials').select('public_key').where('user_id', '=', ann.userId).execute();
    const links = await db().selectFrom('email_verifications').select('token_hash').where('user_id', '=', ann.userId).execute();
    const hashes = await db().selectFrom('orders').select('request_hash').where('user_id', '=', ann.userId).execute();
    const secrets = [
      ...sessions.map((s) => s.id),
      ...keys.flatMap((k) => [Buffer.from(k.public_key).toString('base64url'), Buffer.from(k.public_key).toString('base64'), Buffer.from(k.public_key).toString('hex')]),
      ...links.map((l) => l.token_hash),
      ...hashes.flatMap((h) => (h.request_hash ? [h.request_hash] : [])),
    ];
    expect(secrets.length).toBeGreaterThan(3);
    for (const secret of secrets) expect(everything.includes(secret), secret).toBe(false);
  });

  it('covers every table of the live schema holding a user_id, but those left out on purpose', async () => {
    const live = await listLiveColumns(database().handle);
    const withUser = [...new Set(live.filter((c) => c.column === 'user_id').map((c) => c.table))].sort();
    const inBundle: string[] = ['sessions', 'passkey_credentials', 'strategies', 'orders', 'paper_accounts', 'paper_positions', 'option_structures'];
    expect(withUser.filter((table) => !inBundle.includes(table) && !(table in LEFT_OUT))).toEqual([]);
  });

  it('downloads for 7 days, then 410 export_expired; another user gets 404 for it (injected clock)', async () => {
    const id = await exportReady(ann);
    const bob = await signedInAccount(new HttpClient(app), db());
    expect((await bob.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(404);
    expect((await bob.client.get(`${GDPR}/exports`)).json()).toEqual([]);
    expect((await new HttpClient(app).get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(401);

    clock.advance(7 * DAY - MINUTE);
    // Sessions last 12 hours: both sign in again, days later.
    expect((await signIn(ann.client, ann.authenticator)).statusCode).toBe(200);
    expect((await signIn(bob.client, bob.authenticator)).statusCode).toBe(200);
    expect((await ann.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(200);
    clock.advance(MINUTE);
    const expired = await ann.client.get(`${GDPR}/exports/${id}/download`);
    expect({ status: expired.statusCode, error: expired.json().error }).toEqual({ status: 410, error: 'export_expired' });
    expect((await bob.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(404);
    expect((await ann.client.get(`${GDPR}/exports`)).json().find((e: { id: string }) => e.id === id).status).toBe('expired');
  });

  it('after the purge of its record (37 days) an expired link still answers 410 to its owner; 404 to another user and for an id that never was', async () => {
    const id = await exportReady(ann);
    const bob = await signedInAccount(new HttpClient(app), db());
    clock.advance(37 * DAY + MINUTE);
    await purgeExpiredRecords(db(), clock, FEATURE_PURGES);
    expect(await db().selectFrom('data_exports').select('id').where('id', '=', id).execute()).toEqual([]);
    expect((await signIn(ann.client, ann.authenticator)).statusCode).toBe(200);
    expect((await signIn(bob.client, bob.authenticator)).statusCode).toBe(200);
    const gone = await ann.client.get(`${GDPR}/exports/${id}/download`);
    expect({ status: gone.statusCode, error: gone.json().error }).toEqual({ status: 410, error: 'export_expired' });
    expect((await bob.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(404);
    expect((await ann.client.get(`${GDPR}/exports/${crypto.randomUUID()}/download`)).statusCode).toBe(404);
    // A second housekeeping run keeps the one tombstone; two years after the link expired it goes, and the link is 404.
    await purgeExpiredRecords(db(), clock, FEATURE_PURGES);
    expect((await ann.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(410);
    clock.advance(2 * 365 * DAY - 30 * DAY);
    expect((await purgeExpiredRecords(db(), clock, FEATURE_PURGES)).export_tombstones).toBeGreaterThanOrEqual(1);
    expect((await signIn(ann.client, ann.authenticator)).statusCode).toBe(200);
    expect((await ann.client.get(`${GDPR}/exports/${id}/download`)).statusCode).toBe(404);
  });

  it('includes audit rows the system wrote about the user’s orders and passkeys; escapes formula-looking text cells in the CSVs', async () => {
    const [order] = await db().selectFrom('orders').select('id').where('user_id', '=', ann.userId).execute();
    // What a resting order's fill and a clone signal write: no actor, the user's order or passkey as target.
    await appendAudit(db(), clock, { actorUserId: null, action: 'order.fill', targetKind: 'order', targetId: order!.id, context: { resting: true } });
    await appendAudit(db(), clock, { actorUserId: null, action: 'credential.clone_suspected', targetKind: 'credential', targetId: ann.credentialId, context: { user_id: ann.userId } });
    await appendAudit(db(), clock, { actorUserId: null, action: 'order.fill', targetKind: 'order', targetId: crypto.randomUUID(), context: { someone: 'else' } });
    await createStrategy(ann, { ...FULL_STRATEGY, name: 'Formula', description: '=HYPERLINK("http://evil.example","click")' });

    const files = unzipText((await ann.client.get(`${GDPR}/exports/${await exportReady(ann)}/download`)).rawPayload);
    const data = JSON.parse(files['data.json']!);
    const systemRows = data.audit_entries.filter((e: { actor_user_id: string | null }) => e.actor_user_id === null);
    expect(systemRows.map((e: { action: string; target_id: string }) => [e.action, e.target_id])).toEqual(
      expect.arrayContaining([['order.fill', order!.id], ['credential.clone_suspected', ann.credentialId]]),
    );
    expect(files['data.json']).not.toContain('someone');
    const strategies = parseCsv(files['strategies.csv']!);
    const description = strategies[0]!.indexOf('description');
    expect(strategies.find((row) => row.includes('Formula'))![description]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(data.strategies.find((s: { name: string }) => s.name === 'Formula').description).toBe('=HYPERLINK("http://evil.example","click")');
  });

  it('AUTH_V1=off: every data-rights route answers 404', async () => {
    const off = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'off', HOST: '127.0.0.1' } });
    try {
      const client = new HttpClient(off);
      for (const [method, path] of [
        ['POST', '/export'], ['GET', '/exports'], ['GET', '/exports/00000000-0000-4000-8000-000000000000/download'],
        ['POST', '/erase'], ['PATCH', '/profile'], ['GET', '/retention'],
      ] as const) {
        const response = await client.request(method, `${GDPR}${path}`, method === 'GET' ? undefined : {});
        expect({ path, status: response.statusCode }).toEqual({ path, status: 404 });
      }
    } finally {
      await off.close();
    }
  });

  it('GET retention: the table written from the jobs’ own periods', async () => {
    const response = await ann.client.get(`${GDPR}/retention`);
    expect(response.statusCode).toBe(200);
    const rows = response.json() as { data: string; kept_for: string; why: string }[];
    expect(rows.find((r) => r.data.startsWith('Audit log'))!.kept_for).toBe('2 years');
    expect(rows.find((r) => r.data.startsWith('Your account after'))!.kept_for).toBe('30 days, then purged');
    expect(rows.find((r) => r.data.startsWith('Data exports'))!.kept_for).toMatch(/^7 days/);
    expect(rows.find((r) => r.data.startsWith('Sign-in sessions'))!.kept_for).toBe('12 hours while in use, then 30 days after they end');
  });
});

/**
 * A value as its CSV cell reads once parsed: text that a spreadsheet could take for a formula carries a leading `'`
 * (a passkey or session id in base64url may start with `-`), a plain number does not.
 */
function csvText(value: unknown): string {
  const text = String(value);
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}
