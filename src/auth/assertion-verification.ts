import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { decodeClientDataJSON, decodeCredentialPublicKey, isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';

export interface AssertionExpectations {
  readonly origin: string;
  readonly rpId: string;
  readonly challenge: string;
}

export interface CheckedAssertion {
  readonly newCounter: number;
  readonly backupEligible: boolean;
  readonly backupState: boolean;
}

/** How many credentials keep their public key parsed (a KeyObject is a few hundred bytes). */
export const PUBLIC_KEY_CACHE_SIZE = 10_000;

/**
 * W3C WebAuthn §7.2 steps 10–21 for one assertion, synchronously on node:crypto: the checks of
 * @simplewebauthn's `verifyAuthenticationResponse`, in its order, with its parsers (client data, authenticator
 * data, COSE key), but the two SHA-256 and the signature done in this thread with the credential's key parsed
 * once (the library imports the key and runs every digest through WebCrypto's thread pool: about 0.8 ms of CPU
 * a sign-in, issue 17). Null when any check fails. The caller checks the challenge's issue and single use, the
 * credential's owner, the user handle, `crossOrigin` and the counter (docs/security.md §1.2).
 */
export function checkAssertion(response: AuthenticationResponseJSON, expected: AssertionExpectations, publicKey: Uint8Array): CheckedAssertion | null {
  try {
    return checkAssertionOrThrow(response, expected, publicKey);
  } catch {
    // Undecodable base64url, JSON, CBOR or signature: refused like any other failure.
    return null;
  }
}

function checkAssertionOrThrow(response: AuthenticationResponseJSON, expected: AssertionExpectations, publicKey: Uint8Array): CheckedAssertion | null {
  const { id, rawId, type: credentialType, response: assertion } = response;
  // The credential is named, as base64url, and is a public-key credential.
  if (typeof id !== 'string' || id.length === 0 || id !== rawId || credentialType !== 'public-key') return null;
  if (typeof assertion?.clientDataJSON !== 'string') return null;
  const clientData = decodeClientDataJSON(assertion.clientDataJSON);
  // Step 10: an assertion, not an attestation replayed here.
  if (clientData.type !== 'webauthn.get') return null;
  // Step 11: the challenge this ceremony issued.
  if (clientData.challenge !== expected.challenge) return null;
  // Steps 13–14: never embedded; a top origin is never expected.
  if (clientData.crossOrigin === true || clientData.topOrigin !== undefined) return null;
  // Step 12: our origin, exactly.
  if (clientData.origin !== expected.origin) return null;
  if (!isoBase64URL.isBase64URL(assertion.authenticatorData) || !isoBase64URL.isBase64URL(assertion.signature)) return null;
  // Absent or null (the library reads only a truthy handle; the caller compares it with the owner's).
  if (assertion.userHandle != null && typeof assertion.userHandle !== 'string') return null;
  const tokenBinding = clientData.tokenBinding as { status?: unknown } | undefined;
  if (tokenBinding !== undefined && (typeof tokenBinding !== 'object' || typeof tokenBinding.status !== 'string' || !TOKEN_BINDING_STATUSES.includes(tokenBinding.status))) {
    return null;
  }

  const authData = isoBase64URL.toBuffer(assertion.authenticatorData);
  // Throws on fewer than 37 bytes or bytes left over after the flagged parts.
  const { rpIdHash, flags, counter } = parseAuthenticatorData(authData);
  // Step 15: signed for our RP ID.
  if (!Buffer.from(rpIdHash).equals(sha256(expected.rpId))) return null;
  // Steps 16–17: the user was present and verified (required everywhere).
  if (!flags.up || !flags.uv) return null;
  // Step 18: backed up only if eligible.
  if (flags.bs && !flags.be) return null;

  // Steps 19–21: the signature over authData ‖ SHA-256(clientDataJSON) with the stored public key.
  const key = publicKeyOf(publicKey);
  if (!key) return null;
  const signed = Buffer.concat([authData, sha256(isoBase64URL.toBuffer(assertion.clientDataJSON))]);
  const signature = isoBase64URL.toBuffer(assertion.signature);
  if (key.ecdsa) {
    const rs = ecdsaSignatureOf(signature);
    if (!rs || !verify(key.digest, signed, { key: key.key, dsaEncoding: 'ieee-p1363' }, rs)) return null;
  } else if (!verify(key.digest, signed, key.key, signature)) {
    return null;
  }
  return { newCounter: counter, backupEligible: flags.be, backupState: flags.bs };
}

const TOKEN_BINDING_STATUSES = ['present', 'supported', 'notSupported'];

/**
 * An ES256 signature's r ‖ s (32 bytes each) read out of its DER SEQUENCE { INTEGER r, INTEGER s } as leniently
 * as the library reads it (long-form lengths, a missing sign pad, bytes after the SEQUENCE; an integer of 33 bytes
 * only as a sign pad before a high bit), so an authenticator whose DER the library accepted is not refused here; OpenSSL's own DER reading is
 * strict. Null when it is not that shape or an integer is longer.
 */
export function ecdsaSignatureOf(der: Uint8Array): Buffer | null {
  let at = 0;
  const length = (): number | null => {
    const first = der[at++];
    if (first === undefined) return null;
    if (first < 0x80) return first;
    const octets = first & 0x7f;
    if (octets === 0 || octets > 2) return null;
    let value = 0;
    for (let i = 0; i < octets; i += 1) {
      const next = der[at++];
      if (next === undefined) return null;
      value = value * 256 + next;
    }
    return value;
  };
  const integer = (): Buffer | null => {
    if (der[at++] !== 0x02) return null;
    const size = length();
    if (size === null || size === 0 || at + size > der.length) return null;
    let bytes = der.subarray(at, at + size);
    at += size;
    // Shorter is padded; 33 bytes only as a 00 sign pad before a high bit (as the library normalises).
    if (bytes.length === 33 && bytes[0] === 0 && (bytes[1]! & 0x80) === 0x80) bytes = bytes.subarray(1);
    if (bytes.length > 32) return null;
    return Buffer.concat([Buffer.alloc(32 - bytes.length), bytes]);
  };
  if (der[at++] !== 0x30) return null;
  const size = length();
  if (size === null) return null;
  const end = at + size;
  const r = integer();
  const s = r && integer();
  // The SEQUENCE holds exactly the two integers (bytes may follow it, not hide inside it).
  return r && s && at === end ? Buffer.concat([r, s]) : null;
}

function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

interface VerificationKey {
  readonly key: KeyObject;
  /** node:crypto's digest argument: null for Ed25519 (the algorithm hashes itself). */
  readonly digest: 'sha256' | null;
  /** ES256: the signature comes DER-wrapped and is verified as r ‖ s. */
  readonly ecdsa?: true;
}

const parsedKeys = new Map<string, VerificationKey | null>();

/** The stored COSE key as a KeyObject, cached by its bytes (never by credential id alone); null if not one we accept. */
function publicKeyOf(cose: Uint8Array): VerificationKey | null {
  const cacheKey = Buffer.from(cose).toString('base64');
  let parsed = parsedKeys.get(cacheKey);
  if (parsed === undefined) {
    parsed = parseCoseKey(cose);
    if (parsedKeys.size >= PUBLIC_KEY_CACHE_SIZE) parsedKeys.delete(parsedKeys.keys().next().value!);
    parsedKeys.set(cacheKey, parsed);
  }
  return parsed;
}

const COSE = { kty: 1, alg: 3, crv: -1, x: -2, y: -3, n: -1, e: -2 } as const;

/** The three algorithms registration accepts (`SUPPORTED_ALGORITHMS`): ES256 (P-256), EdDSA (Ed25519), RS256. */
function parseCoseKey(cose: Uint8Array): VerificationKey | null {
  const map = decodeCredentialPublicKey(new Uint8Array(cose)) as unknown as Map<number, unknown>;
  const kty = map.get(COSE.kty);
  const alg = map.get(COSE.alg);
  const b64 = (label: number): string => {
    const value = map.get(label);
    if (!(value instanceof Uint8Array) || value.length === 0) throw new Error(`COSE key: label ${label} missing`);
    return Buffer.from(value).toString('base64url');
  };
  if (kty === 2 && alg === -7 && map.get(COSE.crv) === 1) {
    return { key: createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(COSE.x), y: b64(COSE.y) }, format: 'jwk' }), digest: 'sha256', ecdsa: true };
  }
  if (kty === 1 && alg === -8 && map.get(COSE.crv) === 6) {
    return { key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64(COSE.x) }, format: 'jwk' }), digest: null };
  }
  if (kty === 3 && alg === -257) {
    return { key: createPublicKey({ key: { kty: 'RSA', n: b64(COSE.n), e: b64(COSE.e) }, format: 'jwk' }), digest: 'sha256' };
  }
  return null;
}
