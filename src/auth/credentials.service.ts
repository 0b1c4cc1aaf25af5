import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import { Conflict, NotFound, unauthenticated } from '../platform/errors.js';
import type { AuthDeps } from './auth-context.js';
import { consumeChallenge, issueChallenge } from './challenges.service.js';
import { deleteCredential, findCredential, listCredentials, renameCredential, type CredentialRow } from './credentials.repo.js';
import { registrationFailed, storeCredential } from './registration.service.js';
import { findSessionWithUser, listOpenSessionIds, revokeSessions } from './sessions.repo.js';
import { auditSessionsRevoked, type AuthContext } from './sessions.service.js';
import { findUserById, lockUser } from './users.repo.js';
import type { CredentialView } from './credential-view.js';
import { creationOptions, verifyNewCredential, type CreationOptions, type RegistrationResponseJSON } from './webauthn.js';

function view(row: CredentialRow, auth: AuthContext): CredentialView {
  return {
    id: row.id,
    label: row.device_label,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    transports: row.transports ? row.transports.split(',') : [],
    backup_eligible: row.backup_eligible,
    backup_state: row.backup_state,
    current: row.id === auth.credentialId,
  };
}

export async function listMyCredentials(deps: AuthDeps, auth: AuthContext): Promise<CredentialView[]> {
  return (await listCredentials(deps.db, auth.userId)).map((row) => view(row, auth));
}

/** Creation options for another device, the challenge bound to the signed-in user; their passkeys are excluded. */
export async function addCredentialOptions(deps: AuthDeps, auth: AuthContext): Promise<CreationOptions> {
  const user = await findUserById(deps.db, auth.userId);
  if (!user) throw new NotFound('not_found', 'Not found.');
  const challenge = await issueChallenge(deps.db, deps.clock, 'add_credential', { userId: user.id });
  return creationOptions(deps.config, {
    challenge,
    userHandle: user.webauthn_user_id,
    userName: user.email,
    displayName: user.display_name || user.email,
    exclude: await listCredentials(deps.db, user.id),
  });
}

export async function addCredential(deps: AuthDeps, auth: AuthContext, response: RegistrationResponseJSON): Promise<CredentialView> {
  const ceremony = await consumeChallenge(deps.db, deps.clock, response.response?.clientDataJSON, 'add_credential', auth.userId);
  const credential = await verifyNewCredential(deps.config, response, ceremony.challenge);
  if (!credential) throw registrationFailed();
  return deps.db.transaction().execute(async (trx) => {
    // Serialised with a recovery of this account: a recovery that committed first revoked this session.
    await lockUser(trx, auth.userId, deps.dialect);
    if (auth.sessionId) {
      const session = await findSessionWithUser(trx, auth.sessionId);
      if (!session || session.revoked_at !== null) throw unauthenticated();
    }
    if (await findCredential(trx, credential.id)) throw registrationFailed('This passkey is already registered.');
    await storeCredential(trx, deps, auth.userId, credential, 'add_credential');
    const stored = await findCredential(trx, credential.id);
    return view(stored!, auth);
  });
}

export async function renameMyCredential(deps: AuthDeps, auth: AuthContext, id: string, label: string): Promise<CredentialView> {
  return deps.db.transaction().execute(async (trx) => {
    if ((await renameCredential(trx, auth.userId, id, label)) === 0) throw new NotFound('not_found', 'No such passkey.');
    await appendAudit(trx, deps.clock, { actorUserId: auth.userId, action: 'credential.rename', targetKind: 'credential', targetId: id });
    return view((await findCredential(trx, id))!, auth);
  });
}

/**
 * Removes one of the caller's passkeys and revokes every session it opened. The last passkey
 * cannot go this way (409 `last_credential`): recovery replaces passkeys instead.
 */
export async function deleteMyCredential(deps: AuthDeps, auth: AuthContext, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await lockUser(trx, auth.userId, deps.dialect);
    const mine = await listCredentials(trx, auth.userId);
    if (!mine.some((c) => c.id === id)) throw new NotFound('not_found', 'No such passkey.');
    if (mine.length === 1) throw new Conflict('last_credential', 'This is your only passkey; add another before removing it.');
    const now = isoNow(deps.clock);
    const sessions = await listOpenSessionIds(trx, { userId: auth.userId, credentialId: id }, now);
    // Revoked, not deleted: the sessions stay as history (their credential_id becomes null with the passkey).
    await revokeSessions(trx, sessions, now);
    await deleteCredential(trx, auth.userId, id);
    await appendAudit(trx, deps.clock, { actorUserId: auth.userId, action: 'credential.delete', targetKind: 'credential', targetId: id });
    await auditSessionsRevoked(trx, deps.clock, auth.userId, sessions, { reason: 'credential_deleted', credential_id: id });
  });
}
