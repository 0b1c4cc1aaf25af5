import { DAY } from '../platform/clock.js';

/**
 * How long data rights keep what they make. The purge (`purgeErasedAccounts`, run by housekeeping) and the
 * user-visible retention table are written from these numbers.
 */
export const PRIVACY_RETENTION = {
  /** Contract: an export's download link works for 7 days; then its bundle is deleted. */
  exportLink: 7 * DAY,
  /** The record that an export existed (no bundle) stays 30 days after its link expired, so the page can show it. */
  expiredExportRecords: 30 * DAY,
  /**
   * The tombstone of a purged export record (id, owner, expiry; nothing else) keeps its link answering 410: as long
   * as the audit log keeps the rows that name the export. It goes earlier with the account at the erasure purge.
   */
  exportTombstones: 730 * DAY,
  /** Contract: an erased account's personal data is purged 30 days after `deleted_at`. */
  erasureCooling: 30 * DAY,
} as const;
