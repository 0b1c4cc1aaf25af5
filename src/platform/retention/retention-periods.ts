import { DAY } from '../clock.js';

/**
 * How long each kind of record is kept after it stops being needed. The housekeeping job enforces
 * these; the user-visible retention table is written from the same numbers.
 */
export const RETENTION = {
  /** Contract: audit entries are kept 2 years. */
  auditEntries: 730 * DAY,
  /** Sessions that expired or were revoked: kept a while so the devices page can show recent sign-ins. */
  endedSessions: 30 * DAY,
  /** Used or expired email links. */
  spentEmailVerifications: 1 * DAY,
  /** Outbox rows, delivered or not (bodies are blanked at delivery; mail undelivered after a week never will be). */
  outboxMail: 7 * DAY,
  /** Finished jobs, and dead ones (kept longer so an operator can look into them). */
  doneJobs: 7 * DAY,
  deadJobs: 30 * DAY,
  /** Rate-limit windows long past. */
  rateLimitCounters: 1 * DAY,
} as const;
