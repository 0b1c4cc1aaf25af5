import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import type { DatabaseHandle } from '../../../src/platform/db/database.js';
import { enqueueJob, type JobHandlers } from '../../../src/platform/jobs/jobs.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { silentLogger } from './fixtures/support.js';

const JOB_COUNT = 200;

describeEachDialect('two workers on one queue', (db) => {
  let handles: DatabaseHandle[];

  beforeAll(() => {
    // Each worker has its own connection (pool), as two processes would; the test database closes them.
    handles = [db().openAnother(), db().openAnother()];
  });

  it('never run one job twice: each of many jobs runs exactly once, and both workers share them', async () => {
    const clock = new ManualClock();
    const jobIds = new Set<string>();
    for (let i = 0; i < JOB_COUNT; i += 1) {
      jobIds.add(await enqueueJob(db().handle.db, clock, 'quote.refresh', { index: i }));
    }

    const runsByJob = new Map<string, number>();
    const runsByWorker = new Map<string, number>();
    const workers = handles.map((handle) => {
      const handlers: JobHandlers = {
        'quote.refresh': async (job) => {
          runsByJob.set(job.id, (runsByJob.get(job.id) ?? 0) + 1);
          runsByWorker.set(worker.id, (runsByWorker.get(worker.id) ?? 0) + 1);
          // Yield, so that the other worker claims while this one is mid-job.
          await sleep(Math.floor(Math.random() * 2));
        },
      };
      const worker = new JobWorker({ db: handle.db, dialect: handle.dialect, clock, handlers, logger: silentLogger });
      return worker;
    });

    const completed = await Promise.all(workers.map((worker) => worker.runUntilIdle()));

    const ranTwice = [...runsByJob].filter(([, runs]) => runs !== 1);
    expect(ranTwice).toEqual([]);
    expect([...runsByJob.keys()].sort()).toEqual([...jobIds].sort());
    expect(completed.reduce((sum, count) => sum + count, 0)).toBe(JOB_COUNT);
    for (const worker of workers) expect(runsByWorker.get(worker.id) ?? 0).toBeGreaterThan(0);

    const states = await db()
      .handle.db.selectFrom('jobs')
      .select(['state', 'attempts', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['state', 'attempts'])
      .execute();
    expect(states.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([
      { state: 'done', attempts: 1, count: JOB_COUNT },
    ]);
  });
});
