import type { Platform } from './platform/platform.js';
import { JobWorker } from './platform/jobs/worker.js';
import type { JobHandlers } from './platform/jobs/jobs.js';
import { createMailTransport } from './platform/mail/transport.js';
import { SEND_MAIL_JOB } from './platform/mail/outbox.js';
import { sendMailJob } from './platform/mail/send-mail.job.js';
import { HOUSEKEEPING_JOB, HOUSEKEEPING_SCHEDULE, housekeepingJob } from './platform/retention/housekeeping.job.js';
import type { RecordPurge } from './platform/retention/purge.js';
import { purgeExpiredAuthRecords } from './auth/auth-retention.js';
import { mintEmailLinkToken } from './auth/email-links.service.js';
import { breachNotifyJob, breachSettleJob } from './admin/breach.job.js';
import { BREACH_NOTIFY_JOB, BREACH_SETTLE_JOB } from './admin/breach.service.js';
import { purgeErasedAccounts } from './privacy/erasure.service.js';
import { purgeClosedIncidents } from './admin/breach-steps.service.js';
import { EXPORT_JOB, exportJob, purgeExportTombstones } from './privacy/exports.service.js';
import { configuredMarketData } from './configured-market-data.js';
import { OPTION_SETTLEMENT_JOB, OPTION_SETTLEMENT_SCHEDULE, optionSettlementJob } from './trading/option-settlement.job.js';
import { RESTING_REFRESH_JOB, RESTING_REFRESH_SCHEDULE, restingRefreshJob } from './trading/resting-refresh.job.js';

export interface JobRunner {
  start(): void;
  /** Finishes (or gives back) the job in hand, then releases the mail transport. */
  stop(): Promise<void>;
}

/** The jobs queued once per period (recurring.ts): housekeeping hourly; the options settlement and the resting orders' refresh every 15 minutes. */
export const RECURRING_JOBS = [HOUSEKEEPING_SCHEDULE, OPTION_SETTLEMENT_SCHEDULE, RESTING_REFRESH_SCHEDULE] as const;

/** Each feature's purge of its own tables; housekeeping runs them, then purges the platform's tables. */
export const FEATURE_PURGES: readonly RecordPurge[] = [purgeErasedAccounts, purgeExportTombstones, purgeExpiredAuthRecords, purgeClosedIncidents];

/** Every job kind the service runs, with its handler. Features add theirs here. */
export function buildJobHandlers(platform: Platform): { handlers: JobHandlers; close(): void } {
  const { db, clock, config, logger } = platform;
  const transport = createMailTransport({ smtpUrl: config.smtpUrl, mailDir: config.mailDir, logger });
  // One market data for the worker's jobs: its per-symbol 15-minute refresh memory is shared between them.
  const marketData = configuredMarketData(platform, logger);
  const handlers: JobHandlers = {
    [SEND_MAIL_JOB]: sendMailJob({ db, clock, transport, from: config.mailFrom, mintLinkToken: mintEmailLinkToken }),
    [HOUSEKEEPING_JOB]: housekeepingJob({ db, clock, logger, purges: FEATURE_PURGES }),
    [BREACH_NOTIFY_JOB]: breachNotifyJob({ db, clock, publicOrigin: config.publicOrigin }),
    [BREACH_SETTLE_JOB]: breachSettleJob({ db, clock }),
    [EXPORT_JOB]: exportJob({ db, dialect: platform.dialect, clock, config, logger }),
    [OPTION_SETTLEMENT_JOB]: optionSettlementJob({ db, dialect: platform.dialect, clock, logger, marketData }),
    [RESTING_REFRESH_JOB]: restingRefreshJob({ db, dialect: platform.dialect, clock, logger, marketData }),
  };
  return { handlers, close: () => transport.close() };
}

/** The service's job worker: every handler, the hourly housekeeping, and every 15 minutes the options settlement and the resting orders' refresh. */
export function createJobRunner(platform: Platform, options: { pollMs?: number } = {}): JobRunner {
  const { handlers, close } = buildJobHandlers(platform);
  const worker = new JobWorker({
    db: platform.db,
    dialect: platform.dialect,
    clock: platform.clock,
    logger: platform.logger.child({ component: 'worker' }),
    handlers,
    recurring: RECURRING_JOBS,
    ...options,
  });
  return {
    start: () => worker.start(),
    async stop() {
      await worker.stop();
      close();
    },
  };
}
