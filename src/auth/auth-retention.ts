import { DAY } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { cutoff, deletedCount } from '../platform/retention/purge.js';

/**
 * How long auth keeps its records after they stop being needed (expired WebAuthn challenges go at
 * once). The housekeeping job enforces these; the user-visible retention table is written from the same numbers.
 */
export const AUTH_RETENTION = {
  /** Sessions that expired or were revoked: kept a while so the devices page can show recent sign-ins. */
  endedSessions: 30 * DAY,
  /** Used or expired email links. */
  spentEmailVerifications: 1 * DAY,
} as const;

/** Auth's share of housekeeping: expired challenges, spent email links, long-ended sessions. Idempotent. */
export async function purgeExpiredAuthRecords(db: Db, now: Date): Promise<Record<string, number>> {
  const before = (period: number) => cutoff(now, period);
  return {
    webauthn_challenges: await deletedCount(db.deleteFrom('webauthn_challenges').where('expires_at', '<', now.toISOString())),
    email_verifications: await deletedCount(
      db.deleteFrom('email_verifications').where('expires_at', '<', before(AUTH_RETENTION.spentEmailVerifications)),
    ),
    sessions: await deletedCount(
      db
        .deleteFrom('sessions')
        .where((eb) =>
          eb.or([
            eb('expires_at', '<', before(AUTH_RETENTION.endedSessions)),
            eb('revoked_at', '<', before(AUTH_RETENTION.endedSessions)),
          ]),
        ),
    ),
  };
}
