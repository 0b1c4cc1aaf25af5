import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { isoAfter, isoNow } from '../../../src/platform/clock.js';
import { enqueueJob, type JobHandler } from '../../../src/platform/jobs/jobs.js';
import {
  buryJob,
  claimNextJob,
  completeJob,
  extendLease,
  findJob,
  releaseJob,
  rescheduleJob,
} from '../../../src/platform/jobs/jobs.repo.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { deferred, silentLogger } from './fixtures/support.js';

const LEASE_MS = 30_000;

function workerFor(database: TestDatabase, clock: ManualClock, workerId: string, handler: JobHandler): JobWorker {
  const { db, dialect } = database.handle;
  return new JobWorker({
    db,
    dialect,
    clock,
    workerId,
    logger: silentLogger,
    leaseMs: LEASE_MS,
    handlers: { 'statement.send': handler },
  });
}

describeEachDialect('job lease fencing', (db) => {
  beforeEach(async () => {
    await db().handle.db.deleteFrom('jobs').execute();
  });

  /** Worker "slow" claims the job and stalls past its lease; worker "fast" takes the job over. */
  async function takeOver(slowHandler: JobHandler) {
    const clock = new ManualClock();
    const slowStarted = deferred();
    const fastRelease = deferred();
    const slow = workerFor(db(), clock, 'slow', async (job) => {
      slowStarted.resolve();
      await slowHandler(job);
    });
    const fast = workerFor(db(), clock, 'fast', () => fastRelease.promise);
    const jobId = await enqueueJob(db().handle.db, clock, 'statement.send', { statementId: 9 });

    const slowOutcome = slow.runOnce();
    await slowStarted.promise;
    expect(await fast.runOnce()).toBeUndefined();
    clock.advance(LEASE_MS);
    const fastOutcome = fast.runOnce();
    await expect.poll(async () => (await findJob(db().handle.db, jobId))?.lease_owner).toBe('fast');
    return { jobId, slowOutcome, fastOutcome, finishFast: () => fastRelease.resolve() };
  }

  it('does not let a worker whose lease was taken over mark the job done', async () => {
    const slowFinish = deferred();
    const { jobId, slowOutcome, fastOutcome, finishFast } = await takeOver(() => slowFinish.promise);

    slowFinish.resolve();
    expect(await slowOutcome).toBe('lost_lease');
    expect(await findJob(db().handle.db, jobId)).toMatchObject({ state: 'running', lease_owner: 'fast', attempts: 2 });

    finishFast();
    expect(await fastOutcome).toBe('done');
    expect(await findJob(db().handle.db, jobId)).toMatchObject({ state: 'done', lease_owner: null });
  });

  it('does not let a worker whose lease was taken over reschedule the job when its handler fails', async () => {
    const slowFail = deferred();
    const { jobId, slowOutcome, fastOutcome, finishFast } = await takeOver(async () => {
      await slowFail.promise;
      throw new Error('mail server timed out');
    });

    slowFail.resolve();
    expect(await slowOutcome).toBe('lost_lease');
    expect(await findJob(db().handle.db, jobId)).toMatchObject({ state: 'running', lease_owner: 'fast', last_error: null });

    finishFast();
    expect(await fastOutcome).toBe('done');
  });

  it('changes a job only for the worker holding its lease', async () => {
    const { db: kysely, dialect } = db().handle;
    const clock = new ManualClock();
    const jobId = await enqueueJob(kysely, clock, 'statement.send', {});
    await claimNextJob(kysely, dialect, { owner: 'first', now: isoNow(clock), leaseExpiresAt: isoAfter(clock, LEASE_MS) });
    clock.advance(LEASE_MS);
    await claimNextJob(kysely, dialect, { owner: 'second', now: isoNow(clock), leaseExpiresAt: isoAfter(clock, LEASE_MS) });
    const now = isoNow(clock);

    expect(await completeJob(kysely, jobId, 'first', now)).toBe(false);
    expect(await rescheduleJob(kysely, jobId, 'first', { now, runAt: now, error: 'stale' })).toBe(false);
    expect(await buryJob(kysely, jobId, 'first', { now, error: 'stale' })).toBe(false);
    expect(await releaseJob(kysely, jobId, 'first', now)).toBe(false);
    expect(await extendLease(kysely, jobId, 'first', isoAfter(clock, LEASE_MS * 10))).toBe(false);
    expect(await findJob(kysely, jobId)).toMatchObject({ state: 'running', lease_owner: 'second', attempts: 2, last_error: null });

    expect(await completeJob(kysely, jobId, 'second', now)).toBe(true);
    expect(await findJob(kysely, jobId)).toMatchObject({ state: 'done', lease_owner: null });
  });

  it('aborts the signal of a handler whose lease was taken over, at its next heartbeat', async () => {
    const { db: kysely, dialect } = db().handle;
    const clock = new ManualClock();
    const shortLease = 3_000; // heartbeat every second of real time
    let sawAbort = false;
    const slow = new JobWorker({
      db: kysely,
      dialect,
      clock,
      workerId: 'slow',
      logger: silentLogger,
      leaseMs: shortLease,
      handlers: {
        'statement.send': (job) =>
          new Promise((_resolve, reject) =>
            job.signal.addEventListener('abort', () => {
              sawAbort = true;
              reject(new Error('stopped'));
            }),
          ),
      },
    });
    const jobId = await enqueueJob(kysely, clock, 'statement.send', {});
    const outcome = slow.runOnce();
    await expect.poll(async () => (await findJob(kysely, jobId))?.lease_owner).toBe('slow');
    // Another worker takes the job once the lease has run out by the clock (again, should a heartbeat
    // have slipped in between moving the clock and claiming).
    let taken;
    while (!taken) {
      clock.advance(shortLease);
      taken = await claimNextJob(kysely, dialect, { owner: 'other', now: isoNow(clock), leaseExpiresAt: isoAfter(clock, LEASE_MS) });
    }

    expect(await outcome).toBe('lost_lease');
    expect(sawAbort).toBe(true);
    expect(await findJob(kysely, jobId)).toMatchObject({ state: 'running', lease_owner: 'other', last_error: null });
  });
});
