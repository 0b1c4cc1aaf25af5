import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { isoNow } from '../../src/platform/clock.js';
import { findJob } from '../../src/platform/jobs/jobs.repo.js';
import { JobWorker } from '../../src/platform/jobs/worker.js';
import { EXPORT_JOB, exportJob } from '../../src/privacy/exports.service.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { silentLogger } from '../platform/jobs/fixtures/support.js';
import type { KilledWorkerSettings } from './fixtures/export-killed-worker.js';
import { GDPR, unzipText } from './privacy-kit.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KILLED_WORKER = fileURLToPath(new URL('./fixtures/export-killed-worker.ts', import.meta.url));
const LEASE_MS = 30_000;

function startWorker(settings: KilledWorkerSettings): { child: ChildProcess; bundled: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', KILLED_WORKER, JSON.stringify(settings)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const bundled = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^bundled (\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code, signal) => reject(new Error(`export worker exited early (${code ?? signal}): ${stderr}`)));
  });
  return { child, bundled };
}

describeEachDialect('data rights: a worker killed mid-export', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-08-03T07:00:00.000Z');
  let app: App;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
  });
  afterEach(() => {
    child?.kill('SIGKILL');
  });
  afterAll(async () => app?.close());

  it('leaves no half bundle, no mail and no audit row; another worker finishes it once the lease expires, exactly once', async () => {
    const ann = await signedInAccount(new HttpClient(app), db());
    const requested = await ann.client.post(`${GDPR}/export`);
    expect(requested.statusCode).toBe(202);
    const exportId = requested.json().id;
    const job = await db().selectFrom('jobs').select('id').where('kind', '=', EXPORT_JOB).executeTakeFirstOrThrow();
    // The queue holds only the export: the workers here run no mail (sign-up mails were delivered by the helpers).
    await db().deleteFrom('jobs').where('kind', '!=', EXPORT_JOB).execute();
    const outboxBefore = await db().selectFrom('mail_outbox').select('id').execute();

    const doomed = startWorker({ database: database().connectionOptions, now: isoNow(clock), leaseMs: LEASE_MS, workerId: 'doomed-worker' });
    child = doomed.child;
    expect(await doomed.bundled).toBe(exportId);
    child.kill('SIGKILL');
    const [, signal] = await once(child, 'exit');
    expect(signal).toBe('SIGKILL');

    // Killed with the bundle built in memory: nothing of it in the database.
    expect(await db().selectFrom('data_exports').selectAll().where('id', '=', exportId).executeTakeFirstOrThrow()).toMatchObject({
      status: 'queued', bundle: null, byte_size: null, ready_at: null, expires_at: null,
    });
    expect(await db().selectFrom('mail_outbox').select('id').execute()).toEqual(outboxBefore);
    expect(await db().selectFrom('audit_entries').select('id').where('action', '=', 'dsr.export').execute()).toEqual([]);
    expect(await findJob(db(), job.id)).toMatchObject({ state: 'running', attempts: 1, lease_owner: 'doomed-worker' });
    expect((await ann.client.post(`${GDPR}/export`)).json().error).toBe('export_in_progress');

    const { dialect, config, logger } = app.platform;
    const survivor = new JobWorker({
      db: db(), dialect, clock, logger: silentLogger, leaseMs: LEASE_MS,
      handlers: { [EXPORT_JOB]: exportJob({ db: db(), dialect, clock, config, logger }) },
    });
    clock.advance(LEASE_MS - 1);
    expect(await survivor.runOnce()).toBeUndefined();
    clock.advance(1);
    expect(await survivor.runOnce()).toBe('done');

    expect(await findJob(db(), job.id)).toMatchObject({ state: 'done', attempts: 2 });
    expect((await ann.client.get(`${GDPR}/exports`)).json()).toEqual([expect.objectContaining({ id: exportId, status: 'ready' })]);
    const download = await ann.client.get(`${GDPR}/exports/${exportId}/download`);
    expect(download.statusCode).toBe(200);
    expect(JSON.parse(unzipText(download.rawPayload)['data.json']!).profile[0].id).toBe(ann.userId);
    const mails = await db().selectFrom('mail_outbox').select('subject').where('to_address', '=', ann.email).where('subject', '=', 'Your tradelab data export is ready').execute();
    expect(mails).toHaveLength(1);
    expect(await db().selectFrom('audit_entries').select('id').where('action', '=', 'dsr.export').execute()).toHaveLength(1);
  });
});
