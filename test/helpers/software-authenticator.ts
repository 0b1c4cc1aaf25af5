import { randomBytes, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { cborMap, encodeCbor, type CborMap } from './cbor.js';
import { b64url, COSE_ALG, coseKey, generateKeys, sha256, signWith, uint16, uint32, type Algorithm } from './webauthn-keys.js';

export { coseKey, type Algorithm };

/**
 * A software passkey authenticator plus the browser part of WebAuthn: real key pairs from node:crypto,
 * real CBOR attestation objects (`fmt: none`) and real signed assertions, so tests go through
 * @simplewebauthn/server's verification unmocked. It keeps resident (discoverable) credentials.
 *
 * `overrides` bend one thing at a time to produce what a broken or hostile client would send.
 */
export interface SoftwareAuthenticatorOptions {
  /** The page origin the "browser" reports in clientDataJSON, e.g. http://localhost:3000. */
  origin: string;
  /** Used when the options name no RP ID; defaults to the origin's host name. */
  rpId?: string;
  algorithm?: Algorithm;
  /** BE flag: a synced passkey. Defaults to true (as most passkeys today). */
  backupEligible?: boolean;
  /** BS flag: currently backed up. Defaults to backupEligible. */
  backupState?: boolean;
  /** 'increment' (a security key) or 'zero' (synced passkeys typically always report 0). */
  signCount?: 'increment' | 'zero';
  aaguid?: Uint8Array;
  transports?: string[];
}

export interface ResidentCredential {
  /** base64url */
  readonly id: string;
  readonly rpId: string;
  /** base64url, exactly as the options' user.id */
  readonly userHandle: string;
  readonly algorithm: Algorithm;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  counter: number;
}

export interface Flags {
  up?: boolean;
  uv?: boolean;
  be?: boolean;
  bs?: boolean;
}

/** What both ceremonies can bend. */
interface CommonOverrides {
  origin?: string;
  /** Hashed into authData instead of the options' RP ID. */
  rpId?: string;
  challenge?: string;
  /** clientData `type`. */
  type?: string;
  crossOrigin?: boolean;
  /** Extra or replaced members of clientData (e.g. topOrigin). */
  clientData?: Record<string, unknown>;
  /** Replaces the whole clientDataJSON text. */
  clientDataJSON?: string;
  flags?: Flags;
}

export interface RegistrationOverrides extends CommonOverrides {
  /** Register even if a credential in excludeCredentials is held here (a real authenticator refuses). */
  ignoreExcludeCredentials?: boolean;
  /** Report this COSE alg in the public key (the key stays the authenticator's). */
  coseAlgorithm?: number;
  /** Initial counter in authData. */
  signCount?: number;
  /** Leave the attested credential data out (AT flag cleared). */
  omitAttestedCredentialData?: boolean;
  /** `id`/`rawId` reported in the JSON, different from the credential id in authData. */
  reportedId?: string;
  /** Use this credential id (base64url), e.g. one already registered elsewhere. */
  credentialId?: string;
  /** Length in bytes of the random credential id (default 32; WebAuthn allows at most 1023). */
  credentialIdLength?: number;
  fmt?: string;
  /** Do not keep the credential (e.g. a refusal test whose credential the server will never know). */
  keep?: boolean;
}

export interface AssertionOverrides extends CommonOverrides {
  /** Which resident credential to use (base64url id); default: the allowed or newest for the RP ID. */
  credentialId?: string;
  /** `id`/`rawId` reported in the JSON. */
  reportedId?: string;
  /** The counter to put in authData (e.g. set back); the stored counter is not advanced. */
  signCount?: number;
  /** null leaves userHandle out; a string replaces it. */
  userHandle?: string | null;
  /** Flip a bit of the signature. */
  corruptSignature?: boolean;
  /** Sign with another key (e.g. another credential's) instead of the credential's own. */
  signWith?: KeyObject;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;
const AAGUID_ZERO = new Uint8Array(16);

export class SoftwareAuthenticator {
  readonly origin: string;
  readonly rpId: string;
  readonly algorithm: Algorithm;
  readonly #backupEligible: boolean;
  readonly #backupState: boolean;
  readonly #signCount: 'increment' | 'zero';
  readonly #aaguid: Uint8Array;
  readonly #transports: string[];
  readonly #credentials: ResidentCredential[] = [];

  constructor(options: SoftwareAuthenticatorOptions) {
    this.origin = options.origin;
    this.rpId = options.rpId ?? new URL(options.origin).hostname;
    this.algorithm = options.algorithm ?? 'ES256';
    this.#backupEligible = options.backupEligible ?? true;
    this.#backupState = options.backupState ?? this.#backupEligible;
    this.#signCount = options.signCount ?? 'increment';
    this.#aaguid = options.aaguid ?? AAGUID_ZERO;
    this.#transports = options.transports ?? ['hybrid', 'internal'];
  }

  /** Resident credentials, oldest first. */
  get credentials(): readonly ResidentCredential[] {
    return this.#credentials;
  }

  credential(id: string): ResidentCredential {
    const found = this.#credentials.find((c) => c.id === id);
    if (!found) throw new Error(`software authenticator: no credential ${id}`);
    return found;
  }

  forget(id: string): void {
    const index = this.#credentials.findIndex((c) => c.id === id);
    if (index >= 0) this.#credentials.splice(index, 1);
  }

  /** navigator.credentials.create() with these options, as @simplewebauthn/browser's startRegistration returns it. */
  createCredential(
    options: PublicKeyCredentialCreationOptionsJSON,
    overrides: RegistrationOverrides = {},
  ): RegistrationResponseJSON {
    const rpId = options.rp.id ?? this.rpId;
    if (!options.pubKeyCredParams.some((p) => p.alg === COSE_ALG[this.algorithm])) {
      throw new Error(`NotSupportedError: the options do not accept ${this.algorithm}`);
    }
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (!overrides.ignoreExcludeCredentials && this.#credentials.some((c) => c.rpId === rpId && excluded.has(c.id))) {
      throw new Error('InvalidStateError: the authenticator already holds an excluded credential');
    }

    const { privateKey, publicKey } = generateKeys(this.algorithm);
    const credentialId = overrides.credentialId
      ? Buffer.from(overrides.credentialId, 'base64url')
      : randomBytes(overrides.credentialIdLength ?? 32);
    const credential: ResidentCredential = {
      id: credentialId.toString('base64url'),
      rpId,
      userHandle: options.user.id,
      algorithm: this.algorithm,
      privateKey,
      publicKey,
      counter: 0,
    };
    const signCount = overrides.signCount ?? 0;

    const attestedCredentialData = overrides.omitAttestedCredentialData
      ? Buffer.alloc(0)
      : Buffer.concat([
          this.#aaguid,
          uint16(credentialId.length),
          credentialId,
          coseKey(publicKey, this.algorithm, overrides.coseAlgorithm),
        ]);
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? rpId),
      Uint8Array.of(this.#flags(overrides.flags, !overrides.omitAttestedCredentialData)),
      uint32(signCount),
      attestedCredentialData,
    ]);
    const attestationObject = encodeCbor(
      cborMap({ fmt: overrides.fmt ?? 'none', attStmt: new Map() as CborMap, authData }),
    );
    const clientDataJSON = this.#clientDataJSON('webauthn.create', options.challenge, overrides);

    if (overrides.keep !== false) this.#credentials.push(credential);
    const reportedId = overrides.reportedId ?? credential.id;
    return {
      id: reportedId,
      rawId: reportedId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: options.extensions?.credProps ? { credProps: { rk: true } } : {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        authenticatorData: b64url(authData),
        transports: [...this.#transports],
        publicKeyAlgorithm: overrides.coseAlgorithm ?? COSE_ALG[this.algorithm],
        publicKey: b64url(publicKey.export({ format: 'der', type: 'spki' })),
      },
    };
  }

  /** navigator.credentials.get() with these options, as @simplewebauthn/browser's startAuthentication returns it. */
  getAssertion(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: AssertionOverrides = {},
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? this.rpId;
    const credential = this.#pick(rpId, options, overrides.credentialId);

    let signCount = 0;
    if (overrides.signCount !== undefined) {
      signCount = overrides.signCount;
    } else if (this.#signCount === 'increment') {
      credential.counter += 1;
      signCount = credential.counter;
    }
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? rpId),
      Uint8Array.of(this.#flags(overrides.flags, false)),
      uint32(signCount),
    ]);
    const clientDataJSON = this.#clientDataJSON('webauthn.get', options.challenge, overrides);
    const signedData = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = signWith(credential.algorithm, overrides.signWith ?? credential.privateKey, signedData);
    if (overrides.corruptSignature) signature[signature.length - 1]! ^= 0x01;

    const reportedId = overrides.reportedId ?? credential.id;
    const userHandle = overrides.userHandle === undefined ? credential.userHandle : overrides.userHandle;
    return {
      id: reportedId,
      rawId: reportedId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
    };
  }

  #pick(rpId: string, options: PublicKeyCredentialRequestOptionsJSON, wanted?: string): ResidentCredential {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const candidates = this.#credentials.filter(
      (c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(c.id)) && (!wanted || c.id === wanted),
    );
    const chosen = candidates.at(-1);
    if (!chosen) throw new Error(`NotAllowedError: no usable credential for ${rpId}`);
    return chosen;
  }

  #flags(flags: Flags = {}, attested: boolean): number {
    let byte = 0;
    if (flags.up ?? true) byte |= FLAG_UP;
    if (flags.uv ?? true) byte |= FLAG_UV;
    if (flags.be ?? this.#backupEligible) byte |= FLAG_BE;
    if (flags.bs ?? this.#backupState) byte |= FLAG_BS;
    if (attested) byte |= FLAG_AT;
    return byte;
  }

  #clientDataJSON(type: string, challenge: string, overrides: CommonOverrides): Buffer {
    if (overrides.clientDataJSON !== undefined) return Buffer.from(overrides.clientDataJSON, 'utf8');
    const clientData = {
      type: overrides.type ?? type,
      challenge: overrides.challenge ?? challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: overrides.crossOrigin ?? false,
      ...overrides.clientData,
    };
    return Buffer.from(JSON.stringify(clientData), 'utf8');
  }
}
