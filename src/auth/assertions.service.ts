import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import type { Ceremony } from '../platform/db/schema.js';
import { Unauthenticated } from '../platform/errors.js';
import { constantTimeEqual } from '../platform/ids.js';
import type { AuthDeps } from './auth-context.js';
import { isLocalOperator } from './operator.js';
import { consumeChallenge } from './challenges.service.js';
import { findCredentialWithOwner, recordCredentialUse, type CredentialRow } from './credentials.repo.js';
import type { UserRow } from './users.repo.js';
import { isCounterRegression, verifyAssertion, type AuthenticationResponseJSON } from './webauthn.js';

export interface AssertedUser {
  readonly user: UserRow;
  readonly credential: CredentialRow;
}

function authenticationFailed(): Unauthenticated {
  return new Unauthenticated('authentication_failed', 'The passkey could not be verified.');
}

/**
 * The relying-party checks of an assertion, in order, each a refusal: the challenge (single use, 60 s,
 * this ceremony, this user when bound), a stored credential, a live owner, the user handle (required
 * for discoverable sign-in, else checked when sent), then @simplewebauthn's checks (type, origin, RP
 * ID, UP, UV, signature), then the counter. On success the credential's counter, backup flags and
 * last use are recorded. Nothing but the spent challenge changes on a refusal (a counter regression
 * also writes `credential.clone_suspected`).
 */
export async function verifyUserAssertion(
  deps: AuthDeps,
  response: AuthenticationResponseJSON,
  ceremony: Ceremony,
  boundUserId?: string,
): Promise<AssertedUser>;
/**
 * As above, and `andThen` runs in the transaction that records the use (sign-in issues its session there: one
 * commit per sign-in instead of two, issue 17); its result comes back as `result`.
 */
export async function verifyUserAssertion<T>(
  deps: AuthDeps,
  response: AuthenticationResponseJSON,
  ceremony: Ceremony,
  boundUserId: string | undefined,
  andThen: (trx: DbOrTx, asserted: AssertedUser) => Promise<T>,
): Promise<AssertedUser & { result: T }>;
export async function verifyUserAssertion<T>(
  deps: AuthDeps,
  response: AuthenticationResponseJSON,
  ceremony: Ceremony,
  boundUserId?: string,
  andThen?: (trx: DbOrTx, asserted: AssertedUser) => Promise<T>,
): Promise<AssertedUser & { result?: T }> {
  const consumed = await consumeChallenge(deps.db, deps.clock, response.response?.clientDataJSON, ceremony, boundUserId);
  const found = await findCredentialWithOwner(deps.db, response.id);
  if (!found) throw new Unauthenticated('unknown_credential', 'This passkey is not registered here.');
  const { credential, user } = found;
  // A bound ceremony (step-up) accepts only the bound user's own passkeys.
  if (boundUserId !== undefined && credential.user_id !== boundUserId) throw authenticationFailed();
  if (user.deleted_at !== null) throw authenticationFailed();
  // The AUTH_V1=off operator never proves anything with a passkey (it should have none; this holds if it had one).
  if (isLocalOperator(user)) throw authenticationFailed();
  const userHandle = response.response.userHandle;
  // Usernameless sign-in trusts the credential lookup only when the authenticator names the same account.
  if (boundUserId === undefined && typeof userHandle !== 'string') throw authenticationFailed();
  if (typeof userHandle === 'string' && !constantTimeEqual(userHandle, user.webauthn_user_id)) throw authenticationFailed();

  const verified = await verifyAssertion(deps.config, response, consumed.challenge, credential);
  if (!verified) throw authenticationFailed();

  if (isCounterRegression(Number(credential.sign_count), verified.newCounter)) {
    await appendAudit(deps.db, deps.clock, {
      actorUserId: null,
      action: 'credential.clone_suspected',
      targetKind: 'credential',
      targetId: credential.id,
      context: { user_id: user.id, stored_counter: Number(credential.sign_count), received_counter: verified.newCounter },
    });
    throw authenticationFailed();
  }

  const NOT_RECORDED = Symbol('not recorded');
  const outcome = await deps.db.transaction().execute(async (trx) => {
    if (!(await recordUse(trx, deps, credential, verified))) return NOT_RECORDED;
    return andThen ? { result: await andThen(trx, { user, credential }) } : {};
  });
  if (outcome === NOT_RECORDED) throw authenticationFailed();
  return { user, credential, ...outcome };
}

async function recordUse(
  db: DbOrTx,
  deps: AuthDeps,
  credential: CredentialRow,
  verified: { newCounter: number; backupEligible: boolean; backupState: boolean },
): Promise<boolean> {
  const recorded = await recordCredentialUse(db, credential.id, {
    signCount: verified.newCounter,
    backupEligible: verified.backupEligible,
    backupState: verified.backupState,
    at: isoNow(deps.clock),
  });
  if (!recorded) return false;
  // The flag should never change for a credential; a change is worth a look, not a lockout.
  if (verified.backupEligible !== credential.backup_eligible) {
    await appendAudit(db, deps.clock, {
      actorUserId: credential.user_id,
      action: 'credential.backup_eligibility_changed',
      targetKind: 'credential',
      targetId: credential.id,
      context: { from: credential.backup_eligible, to: verified.backupEligible },
    });
  }
  return recorded;
}
