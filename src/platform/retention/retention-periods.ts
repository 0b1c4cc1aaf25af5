import { DAY } from '../clock.js';

/**
 * How long each kind of platform record is kept after it stops being needed. The housekeeping job
 * enforces these; the user-visible retention table is written from the same numbers. Features keep
 * the periods of their own tables beside their purge (auth: `AUTH_RETENTION` in `src/auth/auth-retention.ts`).
 */
export const RETENTION = {
  /** Contract: audit entries are kept 2 years. */
  auditEntries: 730 * DAY,
  /** Outbox rows, delivered or not (bodies are blanked at delivery; mail undelivered after a week never will be). */
  outboxMail: 7 * DAY,
  /** Finished jobs, and dead ones (kept longer so an operator can look into them). */
  doneJobs: 7 * DAY,
  deadJobs: 30 * DAY,
  /** Rate-limit windows long past. */
  rateLimitCounters: 1 * DAY,
} as const;
