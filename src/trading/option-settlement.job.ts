import { MINUTE } from '../platform/clock.js';
import type { JobHandler } from '../platform/jobs/jobs.js';
import type { RecurringJob } from '../platform/jobs/recurring.js';
import { settleExpiredOptions, type SettlementDeps } from './option-settlement.service.js';

export const OPTION_SETTLEMENT_JOB = 'trading.option_settlement';
/**
 * Every 15 minutes, the provider's delay: an expiry's close is asked for at most that often. One job per period
 * across every worker (recurring.ts), claimed by one of them; the account lock and the settlement's unique key make
 * a run that overlaps another settle nothing twice.
 */
export const OPTION_SETTLEMENT_SCHEDULE: RecurringJob = { kind: OPTION_SETTLEMENT_JOB, everyMs: 15 * MINUTE };

/** Settles the options positions whose expiry has passed; logs what it settled and what still waits for a close. */
export function optionSettlementJob(deps: SettlementDeps): JobHandler {
  return async () => {
    const run = await settleExpiredOptions(deps);
    if (run.settled > 0 || run.awaiting.length > 0) deps.logger.info({ settled: run.settled, awaiting: run.awaiting }, 'options settlement done');
  };
}
