import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Config } from '../platform/config.js';
import { checkAssertion } from './assertion-verification.js';
import type { CredentialRow } from './credentials.repo.js';
import { LIFETIMES } from './lifetimes.js';

/** EdDSA, ES256, and RS256 for Windows Hello; nothing else is offered or accepted. */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];
const RP_NAME = 'tradelab';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };
export type CreationOptions = PublicKeyCredentialCreationOptionsJSON;
export type RequestOptions = PublicKeyCredentialRequestOptionsJSON;

type Rp = Pick<Config, 'publicOrigin' | 'rpId'>;

/** A fresh, stable-for-life WebAuthn user handle: 32 random bytes, base64url, nothing personal in it. */
export { newToken as newUserHandle } from '../platform/ids.js';

export function creationOptions(
  rp: Rp,
  input: { challenge: string; userHandle: string; userName: string; displayName: string; exclude: readonly CredentialRow[] },
): Promise<CreationOptions> {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: input.userName,
    userID: new Uint8Array(Buffer.from(input.userHandle, 'base64url')),
    userDisplayName: input.displayName,
    challenge: challengeBytes(input.challenge),
    timeout: LIFETIMES.challenge,
    attestationType: 'none',
    excludeCredentials: input.exclude.map((c) => ({ id: c.id, transports: transportsOf(c) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
}

export function requestOptions(rp: Rp, input: { challenge: string; allow: readonly CredentialRow[] }): Promise<RequestOptions> {
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: challengeBytes(input.challenge),
    timeout: LIFETIMES.challenge,
    userVerification: 'required',
    allowCredentials: input.allow.map((c) => ({ id: c.id, transports: transportsOf(c) })),
  });
}

export interface NewCredential {
  readonly id: string;
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly transports: string | null;
  readonly aaguid: string;
  readonly backupEligible: boolean;
  readonly backupState: boolean;
}

/** Verifies an attestation against our origin and RP ID, UV required; null when it does not verify. */
export async function verifyNewCredential(rp: Rp, response: RegistrationResponseJSON, challenge: string): Promise<NewCredential | null> {
  if (isEmbeddedCrossOrigin(response.response.clientDataJSON)) return null;
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.publicOrigin,
      expectedRPID: rp.rpId,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    // W3C WebAuthn §7.1 step 25 (Level 3): a credential id longer than 1023 bytes is refused.
    if (Buffer.from(info.credential.id, 'base64url').length > MAX_CREDENTIAL_ID_BYTES) return null;
    const transports = (response.response.transports ?? []).filter((t) => /^[a-z-]{1,20}$/.test(t)).slice(0, 8);
    return {
      id: info.credential.id,
      publicKey: info.credential.publicKey,
      signCount: info.credential.counter,
      transports: transports.length > 0 ? transports.join(',') : null,
      aaguid: info.aaguid,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backupState: info.credentialBackedUp,
    };
  } catch {
    return null;
  }
}

export interface VerifiedAssertion {
  readonly newCounter: number;
  readonly backupEligible: boolean;
  readonly backupState: boolean;
}

/**
 * Verifies an assertion's type, challenge, origin, RP ID, UP, UV and backup flags and signature, null when any
 * fails (`checkAssertion`: the library's checks on synchronous node:crypto, issue 17). The counter is checked by
 * the caller after the signature (see `isCounterRegression`), so that only a correctly signed regression is
 * audited as a possible clone.
 */
export function verifyAssertion(rp: Rp, response: AuthenticationResponseJSON, challenge: string, credential: CredentialRow): VerifiedAssertion | null {
  if (isEmbeddedCrossOrigin(response.response.clientDataJSON)) return null;
  return checkAssertion(response, { origin: rp.publicOrigin, rpId: rp.rpId, challenge }, credential.public_key);
}

const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * We are never embedded in another site's frame (`frame-ancestors 'none'`), so a ceremony reported as
 * cross-origin, or naming a top origin, is refused. @simplewebauthn checks `topOrigin` only when sent.
 */
function isEmbeddedCrossOrigin(clientDataJSON: string): boolean {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { crossOrigin?: unknown; topOrigin?: unknown };
    return data.crossOrigin === true || data.topOrigin !== undefined;
  } catch {
    return true;
  }
}

/** W3C WebAuthn §7.2 step 22: a non-zero counter that did not grow means a cloned authenticator may exist. */
export function isCounterRegression(stored: number, received: number): boolean {
  return (stored > 0 || received > 0) && received <= stored;
}

/** The library would UTF-8-encode a string challenge; ours is base64url of random bytes, so give it the bytes. */
function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(challenge, 'base64url'));
}

function transportsOf(credential: CredentialRow): string[] | undefined {
  return credential.transports ? credential.transports.split(',') : undefined;
}
