import { generateKeyPairSync } from 'node:crypto';
import {
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { SoftwareAuthenticator, type Algorithm } from '../helpers/software-authenticator.js';
import { checkAssertion } from '../../src/auth/assertion-verification.js';
import { SUPPORTED_ALGORITHMS } from '../../src/auth/webauthn.js';

const ORIGIN = 'https://tradelab.example';
const RP_ID = 'tradelab.example';
const CHALLENGE = Buffer.from('a challenge of thirty-two bytes!').toString('base64url');
const expected = { origin: ORIGIN, rpId: RP_ID, challenge: CHALLENGE };

/** A passkey registered through the library's registration, as the service stores it (its COSE public key). */
async function registered(algorithm: Algorithm, options: { backupEligible?: boolean } = {}) {
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm, ...options });
  const creation = await generateRegistrationOptions({
    rpName: 'tradelab',
    rpID: RP_ID,
    userName: 'ada@example.com',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  const registration = await verifyRegistrationResponse({
    response: authenticator.createCredential(creation),
    expectedChallenge: creation.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  if (!registration.verified) throw new Error('registration did not verify');
  const publicKey = registration.registrationInfo.credential.publicKey;
  const assert = (overrides: Parameters<SoftwareAuthenticator['getAssertion']>[1] = {}) =>
    authenticator.getAssertion({ challenge: CHALLENGE, rpId: RP_ID }, overrides);
  return { authenticator, publicKey, assert };
}

/** What @simplewebauthn's verifyAuthenticationResponse says of the same assertion, with the options the service used. */
async function libraryAccepts(response: AuthenticationResponseJSON, publicKey: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: CHALLENGE,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
      credential: { id: response.id, publicKey, counter: 0 },
    });
    return result.verified;
  } catch {
    return false;
  }
}

function flipByte(response: AuthenticationResponseJSON, field: 'authenticatorData' | 'clientDataJSON' | 'signature', at: number, bit: number): AuthenticationResponseJSON {
  const bytes = Buffer.from(response.response[field], 'base64url');
  bytes[at % bytes.length]! ^= 1 << bit;
  return { ...response, response: { ...response.response, [field]: bytes.toString('base64url') } };
}

describe.each<Algorithm>(['ES256', 'EdDSA', 'RS256'])('checkAssertion (%s)', (algorithm) => {
  it('accepts a good assertion and reports its counter and backup flags', async () => {
    const { publicKey, assert } = await registered(algorithm, { backupEligible: true });
    expect(checkAssertion(assert({ signCount: 7 }), expected, publicKey)).toEqual({ newCounter: 7, backupEligible: true, backupState: true });
    expect(checkAssertion(assert({ signCount: 8, flags: { be: true, bs: false } }), expected, publicKey)).toEqual({ newCounter: 8, backupEligible: true, backupState: false });
  });

  it.each<[string, NonNullable<Parameters<SoftwareAuthenticator['getAssertion']>[1]>]>([
    ['a tampered signature', { corruptSignature: true }],
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID in authData', { rpId: 'evil.example' }],
    ['another challenge (a replayed assertion of an earlier ceremony)', { challenge: Buffer.from('an earlier challenge, 32 bytes!!').toString('base64url') }],
    ['clientData type webauthn.create', { type: 'webauthn.create' }],
    ['UP not set', { flags: { up: false } }],
    ['UV not set', { flags: { uv: false } }],
    ['BS without BE', { flags: { be: false, bs: true } }],
    ['crossOrigin: true', { crossOrigin: true }],
    ['a topOrigin', { clientData: { topOrigin: 'https://evil.example' } }],
    ['a tokenBinding with an unknown status', { clientData: { tokenBinding: { status: 'bogus' } } }],
    ['a reported id that is not the rawId', { reportedId: 'c29tZXRoaW5nIGVsc2U' }],
  ])('refuses %s', async (_name, overrides) => {
    const { publicKey, assert } = await registered(algorithm);
    expect(checkAssertion(assert({}), expected, publicKey)).not.toBeNull();
    // `reportedId` here: the JSON's id differs from its rawId (the authenticator helper would set both).
    const response = overrides.reportedId ? { ...assert({}), id: overrides.reportedId } : assert(overrides);
    expect(checkAssertion(response, expected, publicKey)).toBeNull();
  });

  it('refuses a signature made with another key, and a good signature checked against another credential’s key', async () => {
    const { publicKey, assert } = await registered(algorithm);
    const other = await registered(algorithm);
    const stranger = algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : algorithm === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(checkAssertion(assert({ signWith: stranger.privateKey }), expected, publicKey)).toBeNull();
    expect(checkAssertion(assert({}), expected, other.publicKey)).toBeNull();
  });

  it('refuses authenticator data with bytes left over, even when they are signed', async () => {
    const { publicKey, assert } = await registered(algorithm);
    const good = assert({});
    const longer = Buffer.concat([Buffer.from(good.response.authenticatorData, 'base64url'), Buffer.of(0)]).toString('base64url');
    expect(checkAssertion({ ...good, response: { ...good.response, authenticatorData: longer } }, expected, publicKey)).toBeNull();
  });

  it('never accepts what @simplewebauthn refuses, over single-bit flips of authenticatorData, clientDataJSON and signature', async () => {
    const { publicKey, assert } = await registered(algorithm);
    const good = assert({});
    let accepted = 0;
    const stricter: string[] = [];
    for (const field of ['authenticatorData', 'clientDataJSON', 'signature'] as const) {
      const length = Buffer.from(good.response[field], 'base64url').length;
      for (let at = 0; at < length; at += 1) {
        for (const bit of [0, 5, 7]) {
          const flipped = flipByte(good, field, at, bit);
          const ours = checkAssertion(flipped, expected, publicKey) !== null;
          const library = await libraryAccepts(flipped, publicKey);
          if (ours) expect([field, at, bit, library]).toEqual([field, at, bit, true]);
          if (library && !ours) stricter.push(`${field}[${at}] bit ${bit}`);
          if (ours) accepted += 1;
        }
      }
    }
    // Only bits no check covers may flip and still pass: the counter, and the BE/BS pair where both stay consistent.
    expect(accepted).toBeLessThan(40);
    // The one difference: an ES256 signature whose DER framing is broken (e.g. its SEQUENCE tag) is refused by
    // node:crypto (OpenSSL parses DER strictly), while the library's ASN.1 parser reads r and s out of it anyway.
    if (algorithm !== 'ES256') expect(stricter).toEqual([]);
    else for (const where of stricter) expect(where).toMatch(/^signature\[[0-3]\]/);
  });
});

it('refuses an ES256 key relabelled as another algorithm (EdDSA)', async () => {
  const { publicKey, assert } = await registered('ES256');
  const relabelled = Buffer.from(publicKey);
  // COSE map: … 03 26 (alg: -7) … → 03 38 22 would change the length; flip -7 (0x26) to -8 (0x27) instead.
  const at = relabelled.indexOf(Buffer.of(0x03, 0x26));
  expect(at).toBeGreaterThan(0);
  relabelled[at + 1] = 0x27;
  expect(checkAssertion(assert({}), expected, new Uint8Array(relabelled))).toBeNull();
});

describe('ES256 signatures in loose DER, as the library reads them', () => {
  /** The DER of a signature rebuilt from its r and s with `encode`. */
  function reencoded(response: AuthenticationResponseJSON, encode: (r: Buffer, s: Buffer) => Buffer): AuthenticationResponseJSON {
    const der = Buffer.from(response.response.signature, 'base64url');
    const rLength = der[3]!;
    const r = der.subarray(4, 4 + rLength);
    const s = der.subarray(4 + rLength + 2, 4 + rLength + 2 + der[4 + rLength + 1]!);
    return { ...response, response: { ...response.response, signature: encode(r, s).toString('base64url') } };
  }
  const strip = (n: Buffer) => (n[0] === 0 ? n.subarray(1) : n);
  const sequence = (body: Buffer) => Buffer.concat([Buffer.of(0x30, body.length), body]);
  const int = (n: Buffer) => Buffer.concat([Buffer.of(0x02, n.length), n]);
  const forms: [string, (r: Buffer, s: Buffer) => Buffer][] = [
    ['a high-bit integer without its 00 pad', (r, s) => sequence(Buffer.concat([int(strip(r)), int(strip(s))]))],
    ['a long-form SEQUENCE length', (r, s) => {
      const body = Buffer.concat([int(r), int(s)]);
      return Buffer.concat([Buffer.of(0x30, 0x81, body.length), body]);
    }],
    ['bytes after the SEQUENCE', (r, s) => Buffer.concat([sequence(Buffer.concat([int(r), int(s)])), Buffer.of(0, 0)])],
  ];

  for (const [name, encode] of forms) {
    it(`accepts ${name} where the library does`, async () => {
      const { publicKey, assert } = await registered('ES256');
      // Enough signatures that some r or s has its high bit set (a 00 pad to strip).
      for (let i = 0; i < 8; i += 1) {
        const loose = reencoded(assert({}), encode);
        expect(await libraryAccepts(loose, publicKey)).toBe(true);
        expect(checkAssertion(loose, expected, publicKey)).not.toBeNull();
      }
    });
  }

  it('refuses what the library refuses: not SEQUENCE { INTEGER, INTEGER }, an integer too long, a zero that pads nothing', async () => {
    const { publicKey, assert } = await registered('ES256');
    for (let i = 0; i < 8; i += 1) {
      const extraZero = reencoded(assert({}), (r, s) => sequence(Buffer.concat([int(Buffer.concat([Buffer.of(0, 0), strip(r)])), int(s)])));
      expect(await libraryAccepts(extraZero, publicKey)).toBe(false);
      expect(checkAssertion(extraZero, expected, publicKey)).toBeNull();
    }
    const tooLong = reencoded(assert({}), (r, s) => sequence(Buffer.concat([int(Buffer.concat([Buffer.of(1), Buffer.alloc(32, 7)])), int(s)])));
    const notSequence = reencoded(assert({}), (r, s) => Buffer.concat([Buffer.of(0x31), sequence(Buffer.concat([int(r), int(s)])).subarray(1)]));
    expect(checkAssertion(tooLong, expected, publicKey)).toBeNull();
    expect(checkAssertion(notSequence, expected, publicKey)).toBeNull();
  });
});

it('takes a null user handle as none, as the library does', async () => {
  const { publicKey, assert } = await registered('ES256');
  const response = assert({});
  const withNull = { ...response, response: { ...response.response, userHandle: null as unknown as string } };
  expect(await libraryAccepts(withNull, publicKey)).toBe(true);
  expect(checkAssertion(withNull, expected, publicKey)).not.toBeNull();
});
