import type { Platform } from './platform/platform.js';
import { JobWorker } from './platform/jobs/worker.js';
import type { JobHandlers } from './platform/jobs/jobs.js';
import { createMailTransport } from './platform/mail/transport.js';
import { SEND_MAIL_JOB } from './platform/mail/outbox.js';
import { HOUSEKEEPING_JOB, HOUSEKEEPING_SCHEDULE, housekeepingJob } from './platform/retention/housekeeping.job.js';
import { sendMailJob } from './platform/mail/send-mail.job.js';

/** Every job kind the service runs, with its handler. Features add theirs here. */
export function buildJobHandlers(platform: Platform): { handlers: JobHandlers; close(): void } {
  const transport = createMailTransport({
    smtpUrl: platform.config.smtpUrl,
    mailDir: platform.config.mailDir,
    logger: platform.logger,
  });
  const handlers: JobHandlers = {
    [SEND_MAIL_JOB]: sendMailJob({ db: platform.db, clock: platform.clock, transport, from: platform.config.mailFrom }),
    [HOUSEKEEPING_JOB]: housekeepingJob({ db: platform.db, clock: platform.clock, logger: platform.logger }),
  };
  return { handlers, close: () => transport.close() };
}

export function createWorker(platform: Platform, options: { pollMs?: number } = {}): { worker: JobWorker; stop(): Promise<void> } {
  const { handlers, close } = buildJobHandlers(platform);
  const worker = new JobWorker({
    db: platform.db,
    dialect: platform.dialect,
    clock: platform.clock,
    logger: platform.logger.child({ component: 'worker' }),
    handlers,
    recurring: [HOUSEKEEPING_SCHEDULE],
    ...options,
  });
  return {
    worker,
    async stop() {
      await worker.stop();
      close();
    },
  };
}
