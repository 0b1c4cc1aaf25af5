import type { DbOrTx } from '../db/database.js';
import { isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { insertJob } from './jobs.repo.js';

export interface EnqueueOptions {
  /** When the job becomes due; now if omitted. */
  runAt?: Date;
  /** Attempts before the job is declared dead. */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Adds a durable job. Pass the transaction of the change that causes the job, so that both commit
 * or neither does. Handlers run at least once and must be idempotent.
 */
export async function enqueueJob(
  db: DbOrTx,
  clock: Clock,
  kind: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<string> {
  const id = newId();
  const now = isoNow(clock);
  await insertJob(db, {
    id,
    kind,
    payload: JSON.stringify(payload ?? null),
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    runAt: options.runAt ? options.runAt.toISOString() : now,
    now,
  });
  return id;
}

export interface JobContext {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  /** 1 on the first run. */
  readonly attempt: number;
  /** Aborted when the worker shuts down and gives the job back. */
  readonly signal: AbortSignal;
}

/** Runs one job. Throwing schedules a retry (or buries the job after its last attempt). */
export type JobHandler = (job: JobContext) => Promise<void>;

export type JobHandlers = Readonly<Record<string, JobHandler>>;

/** Delay before attempt n + 1: 5 s, 10 s, 20 s, … capped at one hour. */
export function retryDelayMs(attemptsSoFar: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attemptsSoFar - 1), 3_600_000);
}
