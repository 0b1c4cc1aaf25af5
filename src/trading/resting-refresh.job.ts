import { MINUTE } from '../platform/clock.js';
import type { JobHandler } from '../platform/jobs/jobs.js';
import type { RecurringJob } from '../platform/jobs/recurring.js';
import { refreshRestingSymbols, type RestingRefreshDeps } from './resting-refresh.service.js';

export const RESTING_REFRESH_JOB = 'trading.resting_refresh';
/**
 * Every 15 minutes, the provider's delay (a symbol's bars are asked for at most that often anyway). One job per
 * period across every worker (recurring.ts), claimed by one of them; a fill moves only an order still resting, under
 * its owner's account lock, so a run overlapping another (or an import's fills) fills nothing twice.
 */
export const RESTING_REFRESH_SCHEDULE: RecurringJob = { kind: RESTING_REFRESH_JOB, everyMs: 15 * MINUTE };

/** Refreshes the symbols with resting orders and fills what their new bars reach; logs what it did. */
export function restingRefreshJob(deps: RestingRefreshDeps): JobHandler {
  return async () => {
    const run = await refreshRestingSymbols(deps);
    if (run.filled > 0 || run.failed.length > 0) deps.logger.info({ symbols: run.symbols.length, filled: run.filled, failed: run.failed }, 'resting orders refresh done');
  };
}
