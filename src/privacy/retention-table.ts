import { DAY } from '../platform/clock.js';
import { RETENTION } from '../platform/retention/retention-periods.js';
import { AUTH_RETENTION } from '../auth/auth-retention.js';
import { LIFETIMES } from '../auth/lifetimes.js';
import { PRIVACY_RETENTION } from './privacy-retention.js';
import { BREACH_RETENTION } from '../admin/breach-retention.js';

export interface RetentionRow {
  data: string;
  kept_for: string;
  why: string;
}

/** A period in words: "2 years", "30 days", "12 hours", "15 minutes". */
export function period(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms % (365 * DAY) === 0) return plural(ms / (365 * DAY), 'year');
  if (ms % DAY === 0) return plural(ms / DAY, 'day');
  if (ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  return plural(Math.round(ms / 60_000), 'minute');
}

/**
 * `GET /api/gdpr/retention`: what is kept, how long, and why, written from the very constants the housekeeping
 * job, auth's purge and the erasure purge enforce, so the table cannot say one thing while the jobs do another.
 */
export function retentionTable(): RetentionRow[] {
  return [
    { data: 'Your account (address, display name, passkeys, strategies, orders, paper account)', kept_for: 'until you delete your account', why: 'to provide the service' },
    { data: 'Your account after you delete it', kept_for: `${period(PRIVACY_RETENTION.erasureCooling)}, then purged`, why: 'a cooling period: sign-in is refused and the address stays taken, then everything of yours is deleted' },
    { data: 'Sign-in sessions (browser, /24 or /48 network)', kept_for: `${period(LIFETIMES.session)} while in use, then ${period(AUTH_RETENTION.endedSessions)} after they end`, why: 'so you can see recent sign-ins on your devices page' },
    { data: 'Email links (verification, recovery, address change)', kept_for: `${period(LIFETIMES.emailLink)} to use, then ${period(AUTH_RETENTION.spentEmailVerifications)}`, why: 'to confirm your address or let you recover access' },
    { data: 'Passkey sign-in challenges', kept_for: 'until used or expired', why: 'to check a sign-in once' },
    { data: 'Data exports', kept_for: `${period(PRIVACY_RETENTION.exportLink)} (the download), the record ${period(PRIVACY_RETENTION.expiredExportRecords)} more`, why: 'so you can download your data' },
    { data: 'Expired export links (the export’s id, your account id and the expiry; no data)', kept_for: `${period(PRIVACY_RETENTION.exportTombstones)} after the link expired, or until your account is purged`, why: 'so an old link says “expired” rather than “not found”' },
    { data: 'Outgoing mail', kept_for: `${period(RETENTION.outboxMail)} (bodies blanked once sent)`, why: 'to deliver it, retrying through outages' },
    { data: 'Audit log entries', kept_for: period(RETENTION.auditEntries), why: 'security and accountability; after your account is purged they name you only by a keyed hash' },
    { data: 'Rate-limit counters (addresses hashed)', kept_for: period(RETENTION.rateLimitCounters), why: 'to stop abuse' },
    { data: 'Background jobs (sending mail, building exports, breach notices; they name an export or incident, not you)', kept_for: `${period(RETENTION.doneJobs)} after they finish, ${period(RETENTION.deadJobs)} if they failed`, why: 'to retry work through outages and let the operator look into failures' },
    { data: 'Breach incidents (what happened, whom it concerned, whom we mailed, the steps after)', kept_for: `${period(BREACH_RETENTION.closedIncidents)} after it is closed`, why: 'the law asks us to document every breach so the authority can check it; the list of whom we mailed goes with your account at the purge' },
    { data: 'Development mail files (only on an install without SMTP_URL: each mail as a file under DATA_DIR/mail)', kept_for: 'until the operator deletes them; the service never reads or deletes them', why: 'a test install has no mail server: its operator reads the mails there, so it must not hold real people’s data' },
  ];
}
