/**
 * A small CBOR encoder (RFC 8949), enough for COSE keys and WebAuthn attestation objects: unsigned and
 * negative integers, byte strings, text strings, arrays, maps (insertion order kept, as authenticators
 * do not have to sort), booleans and null. Definite lengths only.
 */
export type CborValue = number | bigint | string | Uint8Array | boolean | null | CborValue[] | CborMap;
export type CborMap = Map<number | string, CborValue>;

const MAJOR_UNSIGNED = 0;
const MAJOR_NEGATIVE = 1;
const MAJOR_BYTES = 2;
const MAJOR_TEXT = 3;
const MAJOR_ARRAY = 4;
const MAJOR_MAP = 5;

export function encodeCbor(value: CborValue): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  write(value, parts);
  return new Uint8Array(Buffer.concat(parts));
}

/** A map from a plain object whose keys are text, or from entries whose keys may be integers (COSE). */
export function cborMap(entries: Record<string, CborValue> | [number | string, CborValue][]): CborMap {
  return new Map(Array.isArray(entries) ? entries : Object.entries(entries));
}

function write(value: CborValue, parts: Uint8Array[]): void {
  if (typeof value === 'number' || typeof value === 'bigint') return writeInteger(value, parts);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    parts.push(head(MAJOR_TEXT, bytes.length), bytes);
    return;
  }
  if (value instanceof Uint8Array) {
    parts.push(head(MAJOR_BYTES, value.length), value);
    return;
  }
  if (value === false) return void parts.push(Uint8Array.of(0xf4));
  if (value === true) return void parts.push(Uint8Array.of(0xf5));
  if (value === null) return void parts.push(Uint8Array.of(0xf6));
  if (Array.isArray(value)) {
    parts.push(head(MAJOR_ARRAY, value.length));
    for (const item of value) write(item, parts);
    return;
  }
  parts.push(head(MAJOR_MAP, value.size));
  for (const [key, item] of value) {
    write(key, parts);
    write(item, parts);
  }
}

function writeInteger(value: number | bigint, parts: Uint8Array[]): void {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new Error(`CBOR encoder: only integers are supported, got ${value}`);
  }
  const big = BigInt(value);
  // A negative n is encoded as major type 1 with argument -1 - n.
  parts.push(big < 0n ? head(MAJOR_NEGATIVE, -1n - big) : head(MAJOR_UNSIGNED, big));
}

/** The initial byte and argument: the argument inline below 24, else in 1, 2, 4 or 8 following bytes. */
function head(major: number, argument: number | bigint): Uint8Array {
  const n = BigInt(argument);
  if (n < 0n || n > 0xffff_ffff_ffff_ffffn) throw new Error(`CBOR encoder: argument out of range: ${n}`);
  const type = major << 5;
  if (n < 24n) return Uint8Array.of(type | Number(n));
  if (n <= 0xffn) return Uint8Array.of(type | 24, Number(n));
  if (n <= 0xffffn) {
    const out = Buffer.alloc(3);
    out[0] = type | 25;
    out.writeUInt16BE(Number(n), 1);
    return out;
  }
  if (n <= 0xffff_ffffn) {
    const out = Buffer.alloc(5);
    out[0] = type | 26;
    out.writeUInt32BE(Number(n), 1);
    return out;
  }
  const out = Buffer.alloc(9);
  out[0] = type | 27;
  out.writeBigUInt64BE(n, 1);
  return out;
}
