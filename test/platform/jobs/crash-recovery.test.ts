import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { isoAfter, isoNow } from '../../../src/platform/clock.js';
import { enqueueJob } from '../../../src/platform/jobs/jobs.js';
import { claimNextJob, findJob } from '../../../src/platform/jobs/jobs.repo.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { createEffectsTable, listEffects, recordEffect, silentLogger } from './fixtures/support.js';
import type { HangingWorkerSettings } from './fixtures/hanging-worker.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HANGING_WORKER = fileURLToPath(new URL('./fixtures/hanging-worker.ts', import.meta.url));
const LEASE_MS = 30_000;

/** Starts a worker in its own process; resolves with the id of the job it claimed and is now stuck in. */
function startHangingWorker(settings: HangingWorkerSettings): { child: ChildProcess; started: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', HANGING_WORKER, JSON.stringify(settings)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const started = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^started (\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code, signal) => reject(new Error(`hanging worker exited early (${code ?? signal}): ${stderr}`)));
  });
  return { child, started };
}

describeEachDialect('a worker killed mid-job', (db) => {
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    await db().handle.db.deleteFrom('jobs').execute();
    await createEffectsTable(db().handle);
  });
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it('has its job run again by another worker once the lease expires, completed exactly once', async () => {
    const { handle } = db();
    const clock = new ManualClock();
    const jobId = await enqueueJob(handle.db, clock, 'report.build', { reportId: 7 });

    // The doomed worker's clock stands still at our "now", so its lease ends at now + LEASE_MS.
    const doomed = startHangingWorker({
      database: db().connectionOptions,
      kind: 'report.build',
      now: isoNow(clock),
      leaseMs: LEASE_MS,
      workerId: 'doomed-worker',
    });
    child = doomed.child;
    expect(await doomed.started).toBe(jobId);

    const survivor = new JobWorker({
      db: handle.db,
      dialect: handle.dialect,
      clock,
      logger: silentLogger,
      leaseMs: LEASE_MS,
      handlers: {
        'report.build': async (job) => {
          await recordEffect(handle, { job_id: job.id, worker_id: survivor.id, event: 'started' });
          await recordEffect(handle, { job_id: job.id, worker_id: survivor.id, event: 'completed' });
        },
      },
    });
    // While the doomed worker is alive and holds the lease, nobody else takes its job.
    expect(await survivor.runOnce()).toBeUndefined();

    child.kill('SIGKILL');
    const [, signal] = await once(child, 'exit');
    expect(signal).toBe('SIGKILL');
    const orphan = await findJob(handle.db, jobId);
    expect(orphan).toMatchObject({
      state: 'running',
      attempts: 1,
      lease_owner: 'doomed-worker',
      lease_expires_at: isoAfter(clock, LEASE_MS),
    });

    // Dead or not, the job stays leased until the lease runs out...
    clock.advance(LEASE_MS - 1);
    expect(await survivor.runOnce()).toBeUndefined();
    // ...and is taken over the moment it does.
    clock.advance(1);
    expect(await survivor.runOnce()).toBe('done');

    expect(await findJob(handle.db, jobId)).toMatchObject({ state: 'done', attempts: 2, lease_owner: null });
    const effects = await listEffects(handle, jobId);
    expect(effects.filter((e) => e.event === 'started').map((e) => e.worker_id).sort()).toEqual(
      ['doomed-worker', survivor.id].sort(),
    );
    expect(effects.filter((e) => e.event === 'completed')).toEqual([
      { job_id: jobId, worker_id: survivor.id, event: 'completed' },
    ]);
    clock.advance(24 * 3_600_000);
    expect(await survivor.runOnce()).toBeUndefined();
  });

  it('buries a job whose last attempt died with its worker, without running it again', async () => {
    const { handle } = db();
    const clock = new ManualClock();
    const jobId = await enqueueJob(handle.db, clock, 'report.build', {}, { maxAttempts: 1 });
    // A worker that claimed the job and was never heard from again.
    await claimNextJob(handle.db, handle.dialect, {
      owner: 'crashed-worker',
      now: isoNow(clock),
      leaseExpiresAt: isoAfter(clock, LEASE_MS),
    });

    let runs = 0;
    const survivor = new JobWorker({
      db: handle.db,
      dialect: handle.dialect,
      clock,
      logger: silentLogger,
      leaseMs: LEASE_MS,
      handlers: { 'report.build': async () => void (runs += 1) },
    });
    clock.advance(LEASE_MS);
    expect(await survivor.runOnce()).toBe('dead');

    expect(runs).toBe(0);
    expect(await findJob(handle.db, jobId)).toMatchObject({
      state: 'dead',
      last_error: 'lease expired on the last attempt',
      finished_at: isoNow(clock),
      lease_owner: null,
    });
  });
});
