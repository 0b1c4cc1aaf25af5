import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DialectName } from '../db/database.js';
import { isoAfter, isoNow, type Clock } from '../clock.js';
import { retryDelayMs, type JobHandlers } from './jobs.js';
import { enqueueRecurringJob, type RecurringJob } from './recurring.js';
import { buryJob, claimNextJob, completeJob, extendLease, releaseJob, rescheduleJob, type JobRow } from './jobs.repo.js';

export interface WorkerOptions {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly handlers: JobHandlers;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  /** How long a claimed job stays ours without a heartbeat; a crashed worker's job is retaken after it. */
  readonly leaseMs?: number;
  /** Pause between polls when no job is due. */
  readonly pollMs?: number;
  /** On shutdown, how long to let the job in hand finish before giving it back. */
  readonly shutdownGraceMs?: number;
  readonly workerId?: string;
  /** Jobs to queue once per period (housekeeping); each period's job is created once across all workers. */
  readonly recurring?: readonly RecurringJob[];
}

export type JobOutcome = 'done' | 'retry' | 'dead' | 'lost_lease' | 'released';

/**
 * Claims due jobs one at a time and runs their handlers. Several workers, in one process or many,
 * may share a database: each job is leased to one of them at a time.
 */
export class JobWorker {
  readonly id: string;
  readonly #options: Required<Omit<WorkerOptions, 'workerId'>>;
  #stopping = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  readonly #queuedPeriods = new Map<string, number>();
  #inHand: { row: JobRow; abort: AbortController; done: Promise<JobOutcome> } | undefined;

  constructor(options: WorkerOptions) {
    this.id = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.#options = { leaseMs: 60_000, pollMs: 1_000, shutdownGraceMs: 10_000, recurring: [], ...options };
  }

  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    const loop = this.#run().finally(() => {
      if (this.#loop === loop) this.#loop = undefined;
    });
    this.#loop = loop;
  }

  /**
   * Stops polling, lets the job in hand finish within the grace period, else aborts its signal and
   * gives it back to the queue with the attempt not counted. Does not wait for a handler that ignores
   * its signal: its job is already back in the queue, and its late result is discarded.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    // The loop also covers a claim in flight, whose job would otherwise run without a time limit.
    const busy = this.#loop ?? this.#inHand?.done;
    if (busy && !(await settlesWithin(busy, this.#options.shutdownGraceMs))) {
      const inHand = this.#inHand;
      if (inHand) await this.#giveBack(inHand);
    }
  }

  /** Claims and runs one due job; `undefined` when none was due. */
  async runOnce(): Promise<JobOutcome | undefined> {
    const { db, dialect, clock, leaseMs } = this.#options;
    const row = await claimNextJob(db, dialect, {
      owner: this.id,
      now: isoNow(clock),
      leaseExpiresAt: isoAfter(clock, leaseMs),
    });
    if (!row) return undefined;
    const abort = new AbortController();
    const done = this.#execute(row, abort);
    this.#inHand = { row, abort, done };
    try {
      return await done;
    } finally {
      this.#inHand = undefined;
    }
  }

  /** Runs due jobs until none is left; for tests and one-shot commands. */
  async runUntilIdle(): Promise<number> {
    let count = 0;
    while ((await this.runOnce()) !== undefined) count += 1;
    return count;
  }

  async #run(): Promise<void> {
    const { logger, pollMs } = this.#options;
    logger.info({ workerId: this.id }, 'job worker started');
    while (!this.#stopping) {
      let outcome: JobOutcome | undefined;
      try {
        await this.#queueRecurring();
        outcome = await this.runOnce();
      } catch (error) {
        logger.error({ err: error }, 'job worker could not poll the queue');
      }
      if (outcome === undefined && !this.#stopping) await this.#sleep(pollMs);
    }
    logger.info({ workerId: this.id }, 'job worker stopped');
  }

  /** Queues each recurring job once per period; the insert is skipped while the period is unchanged. */
  async #queueRecurring(): Promise<void> {
    const { db, clock, recurring } = this.#options;
    for (const job of recurring) {
      const period = Math.floor(clock.now().getTime() / job.everyMs);
      if (this.#queuedPeriods.get(job.kind) === period) continue;
      await enqueueRecurringJob(db, clock, job);
      this.#queuedPeriods.set(job.kind, period);
    }
  }

  async #execute(row: JobRow, abort: AbortController): Promise<JobOutcome> {
    const { db, clock, logger, handlers } = this.#options;
    const log = logger.child({ jobId: row.id, kind: row.kind, attempt: row.attempts });

    if (row.attempts > row.max_attempts) {
      const error = row.last_error ?? 'lease expired on the last attempt';
      if (!(await buryJob(db, row.id, this.id, { now: isoNow(clock), error }))) return this.#lostLease(log);
      log.error('job is dead: no attempts left');
      return 'dead';
    }
    const handler = handlers[row.kind];
    if (!handler) {
      const error = `no handler for job kind "${row.kind}"`;
      if (!(await buryJob(db, row.id, this.id, { now: isoNow(clock), error }))) return this.#lostLease(log);
      log.error('job is dead: no handler for its kind');
      return 'dead';
    }

    let leaseLost = false;
    const heartbeat = setInterval(() => {
      extendLease(db, row.id, this.id, isoAfter(clock, this.#options.leaseMs)).then(
        (held) => {
          // Another worker owns the job now: tell the handler to stop rather than work on in parallel.
          if (!held && !abort.signal.aborted) {
            leaseLost = true;
            abort.abort();
          }
        },
        (error) => log.warn({ err: error }, 'could not extend job lease'),
      );
    }, Math.max(1_000, Math.floor(this.#options.leaseMs / 3)));
    heartbeat.unref();

    try {
      await handler({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempt: row.attempts, signal: abort.signal });
    } catch (error) {
      // Given back at shutdown (stop() released it) or lost: a handler that gives up on its signal has not failed.
      if (leaseLost) return this.#lostLease(log);
      if (abort.signal.aborted) return 'released';
      return this.#recordFailure(row, error, log);
    } finally {
      clearInterval(heartbeat);
    }
    if (leaseLost) return this.#lostLease(log);
    if (abort.signal.aborted) return 'released';
    if (!(await completeJob(db, row.id, this.id, isoNow(clock)))) return this.#lostLease(log);
    log.info('job done');
    return 'done';
  }

  async #recordFailure(row: JobRow, error: unknown, log: FastifyBaseLogger): Promise<JobOutcome> {
    const { db, clock } = this.#options;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2_000);
    const now = isoNow(clock);
    if (row.attempts >= row.max_attempts) {
      if (!(await buryJob(db, row.id, this.id, { now, error: message }))) return this.#lostLease(log);
      log.error({ err: error }, 'job failed on its last attempt and is dead');
      return 'dead';
    }
    const runAt = isoAfter(clock, retryDelayMs(row.attempts));
    if (!(await rescheduleJob(db, row.id, this.id, { now, runAt, error: message }))) return this.#lostLease(log);
    log.warn({ err: error, runAt }, 'job failed; will retry');
    return 'retry';
  }

  /** Another worker took the job over after our lease expired: the outcome is no longer ours to record. */
  #lostLease(log: FastifyBaseLogger): JobOutcome {
    log.warn('job lease passed to another worker; outcome discarded');
    return 'lost_lease';
  }

  async #giveBack(inHand: { row: JobRow; abort: AbortController }): Promise<void> {
    const { db, clock, logger } = this.#options;
    inHand.abort.abort();
    if (await releaseJob(db, inHand.row.id, this.id, isoNow(clock))) {
      logger.warn({ jobId: inHand.row.id, kind: inHand.row.kind }, 'job released at shutdown');
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** True if `promise` settles within `ms`, false if the time runs out first. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}
