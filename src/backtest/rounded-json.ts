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
import { roundFraction, roundMoney } from '../engine/index.js';

const ZERO = 48;
const MINUS = 45;
const DOT = 46;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;
/** The most bytes one array element takes: `JSON.stringify` of a double is at most 24 characters, plus a comma. */
const MAX_ELEMENT_BYTES = 26;
/** Scratch memory kept between calls up to this size; a larger body gets memory of its own. */
const KEPT_SCRATCH_BYTES = 4 << 20;

export type Rounding = 'money' | 'fraction';

const DECIMALS: Record<Rounding, number> = { money: 2, fraction: 8 };

/**
 * Builds a JSON document into reused scratch memory: text as UTF-8, rounded number arrays as digits. One at a time
 * (synchronous use only); `bytes()` copies the result out.
 */
export class JsonBytesWriter {
  static #scratch = Buffer.allocUnsafe(1 << 16);
  #buffer: Buffer;
  #at = 0;

  constructor(expectedBytes: number) {
    this.#buffer = expectedBytes <= JsonBytesWriter.#scratch.length ? JsonBytesWriter.#scratch : JsonBytesWriter.#grown(expectedBytes);
  }

  text(text: string): this {
    this.#reserve(text.length * 3);
    this.#at += this.#buffer.write(text, this.#at, 'utf8');
    return this;
  }

  /** `[v0,v1,…]`, each value rounded as `rounding` says. */
  roundedArray(values: ArrayLike<number>, rounding: Rounding): this {
    this.#reserve(values.length * MAX_ELEMENT_BYTES + 2);
    const out = this.#buffer;
    const decimals = DECIMALS[rounding];
    const scale = 10 ** decimals;
    const round = rounding === 'money' ? roundMoney : roundFraction;
    // Below this k (k / scale < 10^-6) JSON writes an exponent.
    const smallestPlain = scale / 1e6;
    let at = this.#at;
    out[at++] = OPEN;
    for (let i = 0; i < values.length; i++) {
      if (i > 0) out[at++] = COMMA;
      const rounded = round(values[i]!);
      const magnitude = Math.abs(rounded);
      // rounded is the double nearest to ±k / scale: multiplying back errs by far less than ½ for k < 10^15.
      const k = Math.round(magnitude * scale);
      if (!(k < 1e15) || (k < smallestPlain && k !== 0)) {
        at += out.write(JSON.stringify(rounded), at, 'latin1');
        continue;
      }
      if (rounded < 0) out[at++] = MINUS;
      const whole = Math.floor(k / scale);
      at = writeDigits(out, at, whole);
      let fraction = k - whole * scale;
      if (fraction === 0) continue;
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
      at += digits;
    }
    out[at++] = CLOSE;
    this.#at = at;
    return this;
  }

  /** A copy of what was written. */
  bytes(): Buffer {
    const result = Buffer.allocUnsafe(this.#at);
    this.#buffer.copy(result, 0, 0, this.#at);
    return result;
  }

  #reserve(bytes: number): void {
    const needed = this.#at + bytes;
    if (needed <= this.#buffer.length) return;
    const larger = JsonBytesWriter.#grown(needed);
    this.#buffer.copy(larger, 0, 0, this.#at);
    this.#buffer = larger;
  }

  static #grown(bytes: number): Buffer {
    const size = Math.max(bytes, JsonBytesWriter.#scratch.length * 2);
    const buffer = Buffer.allocUnsafe(size);
    if (size <= KEPT_SCRATCH_BYTES) JsonBytesWriter.#scratch = buffer;
    return buffer;
  }
}

/** The decimal digits of a whole number 0 ≤ n < 10^15; the index after them. */
function writeDigits(out: Buffer, at: number, n: number): number {
  let length = 1;
  for (let power = 10; power <= n; power *= 10) length += 1;
  for (let d = at + length - 1; d >= at; d--) {
    const rest = Math.floor(n / 10);
    out[d] = ZERO + n - rest * 10;
    n = rest;
  }
  return at + length;
}
