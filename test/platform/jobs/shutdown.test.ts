import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { isoNow } from '../../../src/platform/clock.js';
import { enqueueJob, type JobHandler } from '../../../src/platform/jobs/jobs.js';
import { findJob } from '../../../src/platform/jobs/jobs.repo.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { deferred, silentLogger } from './fixtures/support.js';

/** The grace period is real time: it bounds how long a process waits for its jobs at shutdown. */
function workerFor(database: TestDatabase, clock: ManualClock, handler: JobHandler, shutdownGraceMs: number): JobWorker {
  const { db, dialect } = database.handle;
  return new JobWorker({
    db,
    dialect,
    clock,
    logger: silentLogger,
    pollMs: 5,
    shutdownGraceMs,
    handlers: { 'export.build': handler },
  });
}

describeEachDialect('worker shutdown', (db) => {
  beforeEach(async () => {
    await db().handle.db.deleteFrom('jobs').execute();
  });

  it('lets the job in hand finish within the grace period, then stops polling', async () => {
    const clock = new ManualClock();
    const started = deferred();
    const finish = deferred();
    let abortedWhenDone: boolean | undefined;
    const worker = workerFor(
      db(),
      clock,
      async (job) => {
        started.resolve();
        await finish.promise;
        abortedWhenDone = job.signal.aborted;
      },
      10_000,
    );
    const jobId = await enqueueJob(db().handle.db, clock, 'export.build', { exportId: 1 });

    worker.start();
    await started.promise;
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);

    finish.resolve();
    await stopping;
    expect(abortedWhenDone).toBe(false);
    expect(await findJob(db().handle.db, jobId)).toMatchObject({ state: 'done', attempts: 1 });

    // A stopped worker claims nothing more.
    const laterId = await enqueueJob(db().handle.db, clock, 'export.build', { exportId: 2 });
    await sleep(30);
    expect(await findJob(db().handle.db, laterId)).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('gives back a job that outlasts the grace period: queued again, attempt not counted, signal aborted', async () => {
    const clock = new ManualClock();
    const started = deferred();
    const aborted = deferred();
    const lateFinish = deferred();
    // This handler ignores its signal: stop() must not wait for it beyond the grace period.
    const worker = workerFor(
      db(),
      clock,
      async (job) => {
        job.signal.addEventListener('abort', () => aborted.resolve());
        started.resolve();
        await lateFinish.promise;
      },
      50,
    );
    const jobId = await enqueueJob(db().handle.db, clock, 'export.build', { exportId: 3 });

    worker.start();
    await started.promise;
    clock.advance(1_000);
    await worker.stop();

    await aborted.promise;
    expect(await findJob(db().handle.db, jobId)).toMatchObject({
      state: 'queued',
      attempts: 0,
      run_at: isoNow(clock),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
    });
    lateFinish.resolve();

    // The next worker gets it as a first attempt, and its late finish above did not mark it done.
    const attempts: number[] = [];
    const next = workerFor(db(), clock, async (job) => void attempts.push(job.attempt), 50);
    expect(await next.runOnce()).toBe('done');
    expect(attempts).toEqual([1]);
  });

  it('does not count a handler that gives up on its abort signal as a failed attempt', async () => {
    const clock = new ManualClock();
    const started = deferred();
    const worker = workerFor(
      db(),
      clock,
      (job) =>
        new Promise<void>((_, reject) => {
          job.signal.addEventListener('abort', () => reject(new Error('export cancelled')));
          started.resolve();
        }),
      50,
    );
    const jobId = await enqueueJob(db().handle.db, clock, 'export.build', { exportId: 4 }, { maxAttempts: 1 });

    const outcome = worker.runOnce();
    await started.promise;
    await worker.stop();

    expect(await outcome).toBe('released');
    // Not retried with a backoff, and not buried although this was its only attempt.
    expect(await findJob(db().handle.db, jobId)).toMatchObject({
      state: 'queued',
      attempts: 0,
      run_at: isoNow(clock),
      last_error: null,
    });
  });
});
