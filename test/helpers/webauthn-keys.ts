/** Key pairs, signatures and byte encodings for the software authenticator. */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { cborMap, encodeCbor } from './cbor.js';

export type Algorithm = 'ES256' | 'EdDSA' | 'RS256';

export const COSE_ALG: Record<Algorithm, number> = { ES256: -7, EdDSA: -8, RS256: -257 };

export function generateKeys(algorithm: Algorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  if (algorithm === 'ES256') return generateKeyPairSync('ec', { namedCurve: 'P-256' });
  if (algorithm === 'EdDSA') return generateKeyPairSync('ed25519');
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** ES256 signatures come out DER-encoded from node:crypto, which is what WebAuthn expects. */
export function signWith(algorithm: Algorithm, key: KeyObject, data: Buffer): Buffer {
  return sign(algorithm === 'EdDSA' ? null : 'sha256', data, key);
}

/** The credential public key as COSE_Key (RFC 9053): EC2 P-256, OKP Ed25519 or RSA. */
export function coseKey(publicKey: KeyObject, algorithm: Algorithm, alg = COSE_ALG[algorithm]): Uint8Array<ArrayBuffer> {
  const jwk = publicKey.export({ format: 'jwk' });
  const bytes = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');
  if (algorithm === 'ES256') {
    return encodeCbor(cborMap([[1, 2], [3, alg], [-1, 1], [-2, bytes(jwk.x)], [-3, bytes(jwk.y)]]));
  }
  if (algorithm === 'EdDSA') return encodeCbor(cborMap([[1, 1], [3, alg], [-1, 6], [-2, bytes(jwk.x)]]));
  return encodeCbor(cborMap([[1, 3], [3, alg], [-1, bytes(jwk.n)], [-2, bytes(jwk.e)]]));
}

export function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

export function uint16(n: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(n);
  return out;
}

export function uint32(n: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n >>> 0);
  return out;
}

export function b64url(data: Uint8Array): string {
  return Buffer.from(data).toString('base64url');
}
