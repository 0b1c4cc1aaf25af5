import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { decodeAttestationObject, decodeCredentialPublicKey, isoCBOR, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cborMap, encodeCbor } from './cbor.js';
import {
  SoftwareAuthenticator,
  type Algorithm,
  type AssertionOverrides,
  type RegistrationOverrides,
} from './software-authenticator.js';

const ORIGIN = 'http://localhost:3000';
const RP_ID = 'localhost';

describe('CBOR encoder', () => {
  it('encodes what a CBOR decoder reads back, including negative and multi-byte integers', () => {
    const value = cborMap([
      [1, 2],
      [-1, 1],
      [-257, 'text'],
      ['bytes', new Uint8Array(300).fill(7)],
      ['big', 70_000],
      ['bigger', 5_000_000_000],
      ['neg', -70_000],
      ['list', [true, false, null, 23, 24, 255, 256]],
      ['empty', new Map()],
    ]);
    const decoded = isoCBOR.decodeFirst<Map<unknown, unknown>>(encodeCbor(value));
    expect(decoded.get(1)).toBe(2);
    expect(decoded.get(-1)).toBe(1);
    expect(decoded.get(-257)).toBe('text');
    expect(decoded.get('bytes')).toEqual(new Uint8Array(300).fill(7));
    expect(decoded.get('big')).toBe(70_000);
    expect(Number(decoded.get('bigger'))).toBe(5_000_000_000);
    expect(decoded.get('neg')).toBe(-70_000);
    expect(decoded.get('list')).toEqual([true, false, null, 23, 24, 255, 256]);
    expect((decoded.get('empty') as Map<unknown, unknown>).size).toBe(0);
  });

  it('matches RFC 8949 appendix A examples byte for byte', () => {
    const hex = (v: Parameters<typeof encodeCbor>[0]) => Buffer.from(encodeCbor(v)).toString('hex');
    expect(hex(0)).toBe('00');
    expect(hex(23)).toBe('17');
    expect(hex(24)).toBe('1818');
    expect(hex(1000)).toBe('1903e8');
    expect(hex(1_000_000)).toBe('1a000f4240');
    expect(hex(1_000_000_000_000)).toBe('1b000000e8d4a51000');
    expect(hex(-1)).toBe('20');
    expect(hex(-100)).toBe('3863');
    expect(hex(-1000)).toBe('3903e7');
    expect(hex('IETF')).toBe('6449455446');
    expect(hex(Uint8Array.of(1, 2, 3, 4))).toBe('4401020304');
    expect(hex([1, [2, 3], [4, 5]])).toBe('8301820203820405');
    expect(hex(cborMap({ a: 1, b: [2, 3] }))).toBe('a26161016162820203');
  });
});

async function registrationOptions(
  algorithm: Algorithm,
  excludeCredentials: { id: string }[] = [],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'tradelab',
    rpID: RP_ID,
    userName: 'ada@example.com',
    userDisplayName: 'Ada',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: algorithm === 'RS256' ? [-257] : [-8, -7, -257],
    excludeCredentials,
  });
}

function verifyRegistration(response: RegistrationResponseJSON, options: PublicKeyCredentialCreationOptionsJSON) {
  return verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
}

async function registered(algorithm: Algorithm, authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm })) {
  const options = await registrationOptions(algorithm);
  const response = authenticator.createCredential(options);
  const verification = await verifyRegistration(response, options);
  if (!verification.verified) throw new Error('registration did not verify');
  return { authenticator, options, response, credential: verification.registrationInfo.credential };
}

async function verifyAssertion(
  authenticator: SoftwareAuthenticator,
  credential: WebAuthnCredential,
  overrides: AssertionOverrides = {},
): Promise<{ response: AuthenticationResponseJSON; verified: boolean; newCounter?: number }> {
  const options = await generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
  const response = authenticator.getAssertion(options, overrides);
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential,
    requireUserVerification: true,
  });
  return { response, verified: result.verified, newCounter: result.authenticationInfo.newCounter };
}

describe.each<Algorithm>(['ES256', 'EdDSA', 'RS256'])('software authenticator (%s)', (algorithm) => {
  it('registers: @simplewebauthn/server verifies the attestation and reads flags, aaguid and the key', async () => {
    const aaguid = Buffer.from('adce000235bcc60a648b0b25f1f05503', 'hex');
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm, aaguid, backupEligible: true });
    const options = await registrationOptions(algorithm);
    const response = authenticator.createCredential(options);
    const verification = await verifyRegistration(response, options);

    expect(verification.verified).toBe(true);
    const info = verification.registrationInfo!;
    expect(info.fmt).toBe('none');
    expect(info.aaguid).toBe('adce0002-35bc-c60a-648b-0b25f1f05503');
    expect(info.userVerified).toBe(true);
    expect(info.credentialDeviceType).toBe('multiDevice');
    expect(info.credentialBackedUp).toBe(true);
    expect(info.credential.id).toBe(response.id);
    expect(info.credential.counter).toBe(0);
    expect(response.response.transports).toEqual(['hybrid', 'internal']);
    const cose = decodeCredentialPublicKey(info.credential.publicKey);
    expect(cose.get(3)).toBe({ ES256: -7, EdDSA: -8, RS256: -257 }[algorithm]);
    expect(authenticator.credentials).toHaveLength(1);
    expect(authenticator.credentials[0]!.userHandle).toBe(options.user.id);
  });

  it('signs in: discoverable assertions verify, the counter advances, the user handle is the registered one', async () => {
    const { authenticator, options, credential } = await registered(algorithm);
    const first = await verifyAssertion(authenticator, credential);
    expect(first.verified).toBe(true);
    expect(first.newCounter).toBe(1);
    expect(first.response.response.userHandle).toBe(options.user.id);
    const second = await verifyAssertion(authenticator, { ...credential, counter: 1 });
    expect(second.verified).toBe(true);
    expect(second.newCounter).toBe(2);
  });
});

describe('software authenticator: overrides make verification fail', () => {
  const registrationCases: [string, RegistrationOverrides][] = [
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID in authData', { rpId: 'evil.example' }],
    ['another challenge', { challenge: Buffer.alloc(32, 1).toString('base64url') }],
    ['the wrong clientData type', { type: 'webauthn.get' }],
    ['user verification off', { flags: { uv: false } }],
    ['user presence off', { flags: { up: false } }],
    ['no attested credential data', { omitAttestedCredentialData: true }],
    ['an algorithm the RP did not offer', { coseAlgorithm: -35 }],
    ['an attestation format that needs a statement', { fmt: 'packed' }],
    ['unparseable clientDataJSON', { clientDataJSON: '{"type":' }],
  ];

  it.each(registrationCases)('registration with %s is refused', async (_name, overrides) => {
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const options = await registrationOptions('ES256');
    const response = authenticator.createCredential(options, overrides);
    await expect(verifyRegistration(response, options)).rejects.toThrow();
  });

  it('a reported id unlike the one in authData is NOT refused by the library: it reports the authData id', async () => {
    // So the server must store registrationInfo.credential.id, never the JSON's id.
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const options = await registrationOptions('ES256');
    const reportedId = Buffer.alloc(32, 2).toString('base64url');
    const response = authenticator.createCredential(options, { reportedId });
    const verification = await verifyRegistration(response, options);
    expect(verification.registrationInfo?.credential.id).toBe(authenticator.credentials[0]!.id);
    expect(verification.registrationInfo?.credential.id).not.toBe(reportedId);
  });

  it('a registration without overrides in the same setup verifies (the cases above fail for their override)', async () => {
    await expect(registered('ES256')).resolves.toBeTruthy();
  });

  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const assertionCases: [string, AssertionOverrides][] = [
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID in authData', { rpId: 'evil.example' }],
    ['another challenge', { challenge: Buffer.alloc(32, 1).toString('base64url') }],
    ['the wrong clientData type', { type: 'webauthn.create' }],
    ['user verification off', { flags: { uv: false } }],
    ['user presence off', { flags: { up: false } }],
    ['a corrupted signature', { corruptSignature: true }],
    ['a signature by another key', { signWith: otherKey }],
    ['a counter set back', { signCount: 3 }],
    ['a cross-origin iframe', { crossOrigin: true, clientData: { topOrigin: 'https://evil.example' } }],
  ];

  it.each(assertionCases)('an assertion with %s is refused', async (name, overrides) => {
    const { authenticator, credential } = await registered('ES256');
    // Only the counter case may trip the counter check: the others run with a stored counter of 0.
    const stored = name === 'a counter set back' ? { ...credential, counter: 5 } : credential;
    const refused = await verifyAssertion(authenticator, stored, overrides).then(
      (outcome) => !outcome.verified,
      () => true,
    );
    expect(refused).toBe(true);
  });

  it('the same assertion without overrides verifies (each case above fails for its override)', async () => {
    const { authenticator, credential } = await registered('ES256');
    expect((await verifyAssertion(authenticator, credential)).verified).toBe(true);
  });

  it('gaps the server must close: crossOrigin true is accepted without topOrigin, and at registration', async () => {
    const { authenticator, credential } = await registered('ES256');
    expect((await verifyAssertion(authenticator, credential, { crossOrigin: true })).verified).toBe(true);
    const options = await registrationOptions('ES256');
    const response = new SoftwareAuthenticator({ origin: ORIGIN }).createCredential(options, {
      crossOrigin: true,
      clientData: { topOrigin: 'https://evil.example' },
    });
    expect((await verifyRegistration(response, options)).verified).toBe(true);
  });

  it('an assertion without overrides but a stored counter below it verifies (the counter case fails for its override)', async () => {
    const { authenticator, credential } = await registered('ES256');
    for (let i = 0; i < 5; i += 1) authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID });
    expect((await verifyAssertion(authenticator, { ...credential, counter: 5 })).verified).toBe(true);
  });

  it('leaves userHandle out or replaces it (the server must check these; the library does not)', async () => {
    const { authenticator, credential, options } = await registered('ES256');
    const without = await verifyAssertion(authenticator, { ...credential, counter: 100 }, { signCount: 101, userHandle: null });
    expect(without.response.response).not.toHaveProperty('userHandle');
    const other = await verifyAssertion(authenticator, { ...credential, counter: 200 }, { signCount: 201, userHandle: 'b3RoZXI' });
    expect(other.response.response.userHandle).toBe('b3RoZXI');
    expect(other.response.response.userHandle).not.toBe(options.user.id);
  });
});

describe('software authenticator: credential selection and state', () => {
  it('uses the allowed credential when allowCredentials names one, else the newest for the RP ID', async () => {
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const first = authenticator.createCredential(await registrationOptions('ES256'));
    const second = authenticator.createCredential(await registrationOptions('ES256'));
    expect(authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID }).id).toBe(second.id);
    expect(authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID, allowCredentials: [{ id: first.id, type: 'public-key' }] }).id).toBe(first.id);
    expect(authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID }, { credentialId: first.id }).id).toBe(first.id);
    expect(() => authenticator.getAssertion({ challenge: 'eA', rpId: 'other.example' })).toThrow(/NotAllowedError/);
    authenticator.forget(second.id);
    expect(authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID }).id).toBe(first.id);
  });

  it('makes credential ids of a chosen value or length', async () => {
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
    const long = authenticator.createCredential(await registrationOptions('ES256'), { credentialIdLength: 1100 });
    expect(Buffer.from(long.id, 'base64url')).toHaveLength(1100);
    const reused = authenticator.createCredential(await registrationOptions('ES256'), { credentialId: long.id });
    expect(reused.id).toBe(long.id);
    const options = await registrationOptions('ES256');
    const verification = await verifyRegistration(authenticator.createCredential(options, { credentialIdLength: 1100 }), options);
    // The library does not enforce WebAuthn's 1023-byte limit (§7.1 step 25): the server must.
    expect(verification.verified).toBe(true);
  });

  it('refuses to register again when excludeCredentials names a credential it holds', async () => {
    const { authenticator, response } = await registered('ES256');
    const options = await registrationOptions('ES256', [{ id: response.id }]);
    expect(() => authenticator.createCredential(options)).toThrow(/InvalidStateError/);
    expect(() => authenticator.createCredential(options, { ignoreExcludeCredentials: true })).not.toThrow();
  });

  it('reports zero counters when told to, like synced passkeys, and single-device flags', async () => {
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, signCount: 'zero', backupEligible: false });
    const { credential } = await registered('ES256', authenticator);
    const assertion = authenticator.getAssertion({ challenge: 'eA', rpId: RP_ID });
    const data = parseAuthenticatorData(Buffer.from(assertion.response.authenticatorData, 'base64url'));
    expect(data.counter).toBe(0);
    expect(data.flags.be).toBe(false);
    expect(data.flags.bs).toBe(false);
    expect((await verifyAssertion(authenticator, credential)).verified).toBe(true);
  });

  it('writes a decodable attestation object with an empty attStmt', async () => {
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm: 'EdDSA' });
    const response = authenticator.createCredential(await registrationOptions('EdDSA'));
    const decoded = decodeAttestationObject(Buffer.from(response.response.attestationObject, 'base64url'));
    expect(decoded.get('fmt')).toBe('none');
    expect(decoded.get('attStmt').size).toBe(0);
    const authData = parseAuthenticatorData(decoded.get('authData'));
    expect(authData.flags.at).toBe(true);
    expect(authData.flags.uv).toBe(true);
    expect(Buffer.from(authData.credentialID!).toString('base64url')).toBe(response.id);
  });
});
