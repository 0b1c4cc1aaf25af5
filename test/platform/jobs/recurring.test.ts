import { expect, it } from 'vitest';
import { HOUR } from '../../../src/platform/clock.js';
import { enqueueRecurringJob, periodJobId } from '../../../src/platform/jobs/recurring.js';
import { JobWorker } from '../../../src/platform/jobs/worker.js';
import { ManualClock } from '../../helpers/clock.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { silentLogger } from './fixtures/support.js';

const hourly = { kind: 'test.hourly', everyMs: HOUR };

describeEachDialect('recurring jobs', (db) => {
  async function hourlyJobs() {
    return db().handle.db.selectFrom('jobs').selectAll().where('kind', '=', hourly.kind).orderBy('run_at').execute();
  }

  it('queues one job per period however many workers ask, and the next one in the next period', async () => {
    const clock = new ManualClock('2026-01-05T12:10:00.000Z');
    const other = db().openAnother();
    await Promise.all([
      enqueueRecurringJob(db().handle.db, clock, hourly),
      enqueueRecurringJob(other.db, clock, hourly),
      enqueueRecurringJob(db().handle.db, clock, hourly),
    ]);
    expect(await hourlyJobs()).toHaveLength(1);

    clock.advance(50 * 60 * 1000);
    await enqueueRecurringJob(other.db, clock, hourly);
    const jobs = await hourlyJobs();
    expect(jobs).toHaveLength(2);
    expect(jobs.map((job) => job.id)).toEqual([
      periodJobId(hourly.kind, Math.floor(Date.parse('2026-01-05T12:10:00.000Z') / HOUR)),
      periodJobId(hourly.kind, Math.floor(Date.parse('2026-01-05T13:00:00.000Z') / HOUR)),
    ]);
  });

  it('is run by a started worker', async () => {
    await db().handle.db.deleteFrom('jobs').execute();
    const clock = new ManualClock('2026-02-01T00:30:00.000Z');
    let runs = 0;
    const { db: kysely, dialect } = db().handle;
    const worker = new JobWorker({
      db: kysely,
      dialect,
      clock,
      logger: silentLogger,
      pollMs: 5,
      recurring: [hourly],
      handlers: { [hourly.kind]: async () => void (runs += 1) },
    });
    worker.start();
    for (let i = 0; i < 200 && runs === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await worker.stop();
    expect(runs).toBe(1);
    expect(await hourlyJobs()).toEqual([expect.objectContaining({ state: 'done' })]);
  });

  it('derives uuid-shaped ids, distinct per kind and period', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(periodJobId('a', 1)).toMatch(uuid);
    expect(periodJobId('a', 1)).toBe(periodJobId('a', 1));
    expect(new Set([periodJobId('a', 1), periodJobId('a', 2), periodJobId('b', 1)]).size).toBe(3);
  });
});
