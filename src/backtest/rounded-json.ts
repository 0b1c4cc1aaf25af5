/**
 * JSON arrays of rounded numbers written straight to bytes: each value rounded to the cent or to 8 decimals
 * (engine/round.ts, the same functions the plain shaping calls) and its digits written in the same loop, with
 * neither a rounded array nor a string per number in between. The bytes are exactly `JSON.stringify` of the
 * rounded array (tested), because a rounded value is the double nearest to k / 10^d for an integer k, and when k
 * has at most 15 digits, the shortest decimal that reads back as that double — what `JSON.stringify` writes — is
 * k / 10^d itself without trailing zeros (any two decimals of at most 15 significant digits are different doubles).
 * Everything else (non-finite values, k ≥ 10^15, values below 10^-6 which JSON writes with an exponent) is
 * written by `JSON.stringify` itself.
 */
import { roundedUnits } from '../engine/index.js';

const ZERO = 48;
const MINUS = 45;
const DOT = 46;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const INT32_LIMIT = 2 ** 31;
/** The most bytes one array element takes: `JSON.stringify` of a double is at most 24 characters, plus a comma. */
const MAX_ELEMENT_BYTES = 26;
/** Scratch memory kept between calls up to this size; a larger body gets memory of its own. */
const KEPT_SCRATCH_BYTES = 4 << 20;

export type Rounding = 'money' | 'fraction';

const DECIMALS: Record<Rounding, number> = { money: 2, fraction: 8 };

/**
 * Builds a JSON document into scratch memory reused from one document to the next: text as UTF-8, rounded number
 * arrays as digits; `bytes()` copies the result out. A writer started while another is unfinished uses memory of
 * its own.
 */
export class JsonBytesWriter {
  static #scratch = Buffer.allocUnsafe(1 << 16);
  /** Whether a writer is using the scratch memory (one left unfinished by a throw keeps it: later ones allocate). */
  static #scratchTaken = false;
  #buffer: Buffer;
  #ownsScratch: boolean;
  #at = 0;

  constructor(expectedBytes: number) {
    this.#ownsScratch = !JsonBytesWriter.#scratchTaken;
    if (this.#ownsScratch) JsonBytesWriter.#scratchTaken = true;
    this.#buffer = this.#ownsScratch && expectedBytes <= JsonBytesWriter.#scratch.length ? JsonBytesWriter.#scratch : this.#grown(expectedBytes);
  }

  text(text: string): this {
    this.#reserve(text.length * 3);
    this.#at += this.#buffer.write(text, this.#at, 'utf8');
    return this;
  }

  /** Bytes already in JSON. */
  raw(bytes: Uint8Array): this {
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.#at);
    this.#at += bytes.length;
    return this;
  }

  /** `[v0,v1,…]`, each value rounded as `rounding` says. */
  roundedArray(values: ArrayLike<number>, rounding: Rounding): this {
    this.#reserve(values.length * MAX_ELEMENT_BYTES + 2);
    // One element type in the loop: a loop that has seen both typed and plain arrays runs about half as fast.
    const column = values instanceof Float64Array ? values : float64Copy(values);
    this.#at = writeRoundedArray(this.#buffer, this.#at, column, DECIMALS[rounding]);
    return this;
  }

  /** `["a","b",…]`: strings of plain printable ASCII byte by byte, any other through `JSON.stringify`. */
  stringArray(values: readonly string[]): this {
    let at = this.#at;
    let out = this.#buffer;
    const reserve = (bytes: number) => {
      this.#at = at;
      this.#reserve(bytes);
      out = this.#buffer;
    };
    reserve(2);
    out[at++] = OPEN;
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      reserve(value.length * 6 + 3);
      if (i > 0) out[at++] = COMMA;
      const begin = at;
      out[at++] = QUOTE;
      let plain = true;
      for (let c = 0; c < value.length; c++) {
        const code = value.charCodeAt(c);
        if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) {
          plain = false;
          break;
        }
        out[at++] = code;
      }
      if (plain) out[at++] = QUOTE;
      else at = begin + out.write(JSON.stringify(value), begin, 'utf8');
    }
    reserve(1);
    out[at++] = CLOSE;
    this.#at = at;
    return this;
  }

  /** A copy of what was written; the writer is done. */
  bytes(): Buffer {
    const result = Buffer.allocUnsafe(this.#at);
    this.#buffer.copy(result, 0, 0, this.#at);
    if (this.#ownsScratch) {
      this.#ownsScratch = false;
      JsonBytesWriter.#scratchTaken = false;
    }
    return result;
  }

  #reserve(bytes: number): void {
    const needed = this.#at + bytes;
    if (needed <= this.#buffer.length) return;
    const larger = this.#grown(needed);
    this.#buffer.copy(larger, 0, 0, this.#at);
    this.#buffer = larger;
  }

  /** Memory for at least `bytes`; kept as the next scratch when this writer holds the scratch and it is not too large. */
  #grown(bytes: number): Buffer {
    // Still undefined when the constructor asks.
    const current = this.#buffer as Buffer | undefined;
    const size = Math.max(bytes, 2 * (current ?? JsonBytesWriter.#scratch).length);
    const buffer = Buffer.allocUnsafe(size);
    if (this.#ownsScratch && size <= KEPT_SCRATCH_BYTES) JsonBytesWriter.#scratch = buffer;
    return buffer;
  }
}

function float64Copy(values: ArrayLike<number>): Float64Array {
  const column = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) column[i] = values[i]!;
  return column;
}

/** Digit pairs "00" to "99" as bytes: two digits per division. */
const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = ZERO + Math.floor(i / 10);
  DIGIT_PAIRS[2 * i + 1] = ZERO + (i % 10);
}

/** `[…]` of `values`, each rounded to `decimals`, into `out` (room already reserved) from `at`; the index after it. */
function writeRoundedArray(out: Buffer, at: number, values: Float64Array, decimals: number): number {
  const scale = 10 ** decimals;
  out[at++] = OPEN;
  // A value equal to the one before (a curve is flat while no position is open) is a copy of its bytes.
  let previous = Number.NaN;
  let previousStart = at;
  let previousEnd = at;
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out[at++] = COMMA;
    const x = values[i]!;
    if (x === previous) {
      for (let j = previousStart; j < previousEnd; j++) out[at++] = out[j]!;
      continue;
    }
    previous = x;
    previousStart = at;
    at = writeRounded(out, at, x, scale, decimals);
    previousEnd = at;
  }
  out[at++] = CLOSE;
  return at;
}

/** x rounded to `decimals` (scale = 10^decimals) as JSON writes the rounded value; the index after it. */
function writeRounded(out: Buffer, at: number, x: number, scale: number, decimals: number): number {
  const k = roundedUnits(x, scale);
  if (k === 0) {
    out[at] = ZERO;
    return at + 1;
  }
  // Below k = scale / 10^6 (k / scale < 10^-6) JSON writes an exponent.
  if (k < scale / 1e6 || k >= 1e15) {
    // k < 0: x is its own rounding (NaN and ±Infinity are null).
    return at + out.write(JSON.stringify(k < 0 ? x : (x < 0 ? -k : k) / scale), at, 'latin1');
  }
  if (x < 0) out[at++] = MINUS;
  return k < INT32_LIMIT ? writeSmallDecimal(out, at, k | 0, scale | 0, decimals) : writeDecimal(out, at, k, scale, decimals);
}

/** The decimal digits of 0 ≤ n < 2^31, exactly `length` of them (zero-padded) ending before `end`. */
function writeDigits(out: Buffer, end: number, n: number, length: number): void {
  let d = end;
  for (; length >= 2; length -= 2) {
    const rest = (n / 100) | 0;
    const pair = (n - rest * 100) << 1;
    out[--d] = DIGIT_PAIRS[pair + 1]!;
    out[--d] = DIGIT_PAIRS[pair]!;
    n = rest;
  }
  if (length === 1) out[--d] = ZERO + n;
}

/** How many decimal digits 0 ≤ n < 2^31 has (1 for 0). */
function digitCount(n: number): number {
  if (n < 100_000) return n < 100 ? (n < 10 ? 1 : 2) : n < 1_000 ? 3 : n < 10_000 ? 4 : 5;
  return n < 10_000_000 ? (n < 1_000_000 ? 6 : 7) : n < 100_000_000 ? 8 : n < 1_000_000_000 ? 9 : 10;
}

/** k / scale (k < 2^31, scale = 10^decimals) without trailing zeros, in int32 arithmetic; the index after it. */
function writeSmallDecimal(out: Buffer, at: number, k: number, scale: number, decimals: number): number {
  const whole = (k / scale) | 0;
  const fraction = k - whole * scale;
  const length = digitCount(whole);
  writeDigits(out, at + length, whole, length);
  at += length;
  if (fraction === 0) return at;
  out[at++] = DOT;
  // All `decimals` digits, then the trailing zeros taken back (the fraction is not 0, so a digit is not 0).
  at += decimals;
  writeDigits(out, at, fraction, decimals);
  while (out[at - 1] === ZERO) at--;
  return at;
}

/** As writeSmallDecimal, for 2^31 ≤ k < 10^15, in exact double arithmetic. */
function writeDecimal(out: Buffer, at: number, k: number, scale: number, decimals: number): number {
  const whole = Math.floor(k / scale);
  let fraction = k - whole * scale;
  let length = 1;
  for (let power = 10; power <= whole; power *= 10) length += 1;
  for (let d = at + length - 1, n = whole; d >= at; d--) {
    const rest = Math.floor(n / 10);
    out[d] = ZERO + n - rest * 10;
    n = rest;
  }
  at += length;
  if (fraction === 0) return at;
  let digits = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  out[at++] = DOT;
  for (let d = at + digits - 1; d >= at; d--) {
    const rest = Math.floor(fraction / 10);
    out[d] = ZERO + fraction - rest * 10;
    fraction = rest;
  }
  return at + digits;
}
