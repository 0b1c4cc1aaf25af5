import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { HOUR, isoAfter, isoNow, MINUTE, SECOND } from '../../../src/platform/clock.js';
import { enqueueJob, retryDelayMs, type JobContext, type JobHandlers } from '../../../src/platform/jobs/jobs.js';
import { findJob } from '../../../src/platform/jobs/jobs.repo.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { silentLogger } from './fixtures/support.js';

function workerFor(database: TestDatabase, clock: ManualClock, handlers: JobHandlers): JobWorker {
  const { db, dialect } = database.handle;
  return new JobWorker({ db, dialect, clock, handlers, logger: silentLogger });
}

describeEachDialect('durable jobs', (db) => {
  beforeEach(async () => {
    await db().handle.db.deleteFrom('jobs').execute();
  });

  it('runs an enqueued job with its payload and marks it done', async () => {
    const clock = new ManualClock();
    const seen: JobContext[] = [];
    const worker = workerFor(db(), clock, { 'report.build': async (job) => void seen.push(job) });

    const jobId = await enqueueJob(db().handle.db, clock, 'report.build', { reportId: 42, format: 'pdf' });
    clock.advance(1_000);
    expect(await worker.runOnce()).toBe('done');

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id: jobId, kind: 'report.build', payload: { reportId: 42, format: 'pdf' }, attempt: 1 });
    expect(await findJob(db().handle.db, jobId)).toMatchObject({
      state: 'done',
      attempts: 1,
      finished_at: isoNow(clock),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
    });
    expect(await worker.runOnce()).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('does not claim a job before its run_at, and runs it once the clock gets there', async () => {
    const clock = new ManualClock();
    let runs = 0;
    const worker = workerFor(db(), clock, { 'report.build': async () => void (runs += 1) });
    const runAt = new Date(clock.now().getTime() + 10 * MINUTE);
    const jobId = await enqueueJob(db().handle.db, clock, 'report.build', null, { runAt });

    expect(await worker.runOnce()).toBeUndefined();
    clock.set(new Date(runAt.getTime() - 1));
    expect(await worker.runOnce()).toBeUndefined();
    expect(await findJob(db().handle.db, jobId)).toMatchObject({ state: 'queued', attempts: 0 });

    clock.set(runAt);
    expect(await worker.runOnce()).toBe('done');
    expect(runs).toBe(1);
  });

  it('retries a failing job with exponential backoff, then buries it after max_attempts', async () => {
    const clock = new ManualClock();
    const attempts: number[] = [];
    const worker = workerFor(db(), clock, {
      'report.build': async (job) => {
        attempts.push(job.attempt);
        throw new Error(`report service unavailable (attempt ${job.attempt})`);
      },
    });
    const jobId = await enqueueJob(db().handle.db, clock, 'report.build', {}, { maxAttempts: 3 });

    // Attempts 1 and 2 fail and are put back, due retryDelayMs(attempts so far) later.
    for (const attempt of [1, 2]) {
      expect(await worker.runOnce()).toBe('retry');
      const delay = retryDelayMs(attempt);
      expect(await findJob(db().handle.db, jobId)).toMatchObject({
        state: 'queued',
        attempts: attempt,
        run_at: isoAfter(clock, delay),
        last_error: `report service unavailable (attempt ${attempt})`,
        lease_owner: null,
      });
      clock.advance(delay - 1);
      expect(await worker.runOnce()).toBeUndefined();
      clock.advance(1);
    }

    // Attempt 3 is the last: the job is dead, with the error that killed it.
    expect(await worker.runOnce()).toBe('dead');
    expect(await findJob(db().handle.db, jobId)).toMatchObject({
      state: 'dead',
      attempts: 3,
      last_error: 'report service unavailable (attempt 3)',
      finished_at: isoNow(clock),
      lease_owner: null,
    });

    // A dead job is never run again, however long we wait.
    clock.advance(7 * 24 * HOUR);
    expect(await worker.runOnce()).toBeUndefined();
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('buries a job of an unknown kind at once, and still runs the jobs behind it', async () => {
    const clock = new ManualClock();
    let reports = 0;
    const worker = workerFor(db(), clock, { 'report.build': async () => void (reports += 1) });
    const unknownId = await enqueueJob(db().handle.db, clock, 'report.archive', { reportId: 1 });
    clock.advance(1);
    await enqueueJob(db().handle.db, clock, 'report.build', { reportId: 1 });

    expect(await worker.runOnce()).toBe('dead');
    expect(await findJob(db().handle.db, unknownId)).toMatchObject({
      state: 'dead',
      attempts: 1,
      last_error: 'no handler for job kind "report.archive"',
    });
    expect(await worker.runOnce()).toBe('done');
    expect(reports).toBe(1);

    clock.advance(7 * 24 * HOUR);
    expect(await worker.runUntilIdle()).toBe(0);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 5 s after each failed attempt and stops at one hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5 * SECOND, 10 * SECOND, 20 * SECOND, 40 * SECOND]);
    expect(retryDelayMs(11)).toBe(HOUR);
    expect(retryDelayMs(1_000)).toBe(HOUR);
  });
});
