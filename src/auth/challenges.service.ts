import { BadRequest } from '../platform/errors.js';
import { isoAfter, isoNow, type Clock } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { Ceremony } from '../platform/db/schema.js';
import { newToken, sha256Hex } from '../platform/ids.js';
import { insertChallenge, takeChallenge } from './challenges.repo.js';
import { LIFETIMES } from './lifetimes.js';

/**
 * Issues a 32-byte random challenge for one ceremony, stored (by its SHA-256) for 60 s.
 * `userId` binds the ceremony to an account (add a device, step-up, recovery).
 */
export async function issueChallenge(
  db: DbOrTx,
  clock: Clock,
  ceremony: Ceremony,
  options: { userId?: string; context?: Record<string, unknown> } = {},
): Promise<string> {
  const challenge = newToken();
  await insertChallenge(db, {
    id: sha256Hex(challenge),
    ceremony,
    user_id: options.userId ?? null,
    context: options.context ? JSON.stringify(options.context) : null,
    expires_at: isoAfter(clock, LIFETIMES.challenge),
    created_at: isoNow(clock),
  });
  return challenge;
}

export interface ConsumedChallenge {
  readonly challenge: string;
  readonly userId: string | null;
  readonly context: Record<string, unknown>;
}

/**
 * Takes the challenge the browser signed (from `clientDataJSON`) out of the store: single use, so it is
 * gone even when the rest of the verification then fails. Refused when missing, expired, issued for
 * another ceremony, or bound to another user than `userId`.
 */
export async function consumeChallenge(
  db: DbOrTx,
  clock: Clock,
  clientDataJSON: unknown,
  ceremony: Ceremony,
  userId?: string,
): Promise<ConsumedChallenge> {
  const challenge = challengeOf(clientDataJSON);
  const row = await takeChallenge(db, sha256Hex(challenge));
  const invalid = () => new BadRequest('challenge_invalid', 'The ceremony has expired or is not known; start again.');
  if (!row) throw invalid();
  if (row.expires_at <= isoNow(clock)) throw invalid();
  if (row.ceremony !== ceremony) throw invalid();
  if (userId !== undefined && row.user_id !== userId) throw invalid();
  // The row was found by the challenge's hash, so the signed challenge is the one issued.
  return { challenge, userId: row.user_id, context: row.context ? JSON.parse(row.context) : {} };
}

/** The `challenge` inside a base64url `clientDataJSON`; anything undecodable is a 400 `invalid_payload`. */
export function challengeOf(clientDataJSON: unknown): string {
  const malformed = () => new BadRequest('invalid_payload', 'clientDataJSON is not base64url-encoded client data.');
  if (typeof clientDataJSON !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(clientDataJSON)) throw malformed();
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  const challenge = (data as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 512) throw malformed();
  return challenge;
}
