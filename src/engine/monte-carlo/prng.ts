/**
 * The Monte Carlo's random numbers: xoshiro128** 1.1 (Blackman and Vigna), its 128-bit state seeded by two outputs
 * of SplitMix64, the seeder its authors recommend. Written here rather than taken from a package, because "the same
 * request gives the same bytes" must hold across dependency upgrades: the stream is fixed by these lines and by the
 * published test vectors in prng.test.ts, not by whatever a package's next version draws.
 */

const MASK_64 = (1n << 64n) - 1n;
const TWO_TO_32 = 4294967296;
const TWO_TO_MINUS_32 = 1 / TWO_TO_32;

/** SplitMix64 (Vigna): the generator whose outputs for seed 1234567 are published (prng.test.ts). */
export function splitMix64(seed: bigint): () => bigint {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK_64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
    return z ^ (z >> 31n);
  };
}

export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** The generator with the state (s0, s1, s2, s3), each an unsigned 32-bit word; not all zero. */
  constructor(s0: number, s1: number, s2: number, s3: number) {
    this.s0 = s0 | 0;
    this.s1 = s1 | 0;
    this.s2 = s2 | 0;
    this.s3 = s3 | 0;
  }

  /** Seeded from an integer: SplitMix64's first output is s0 (low word) and s1, its second s2 and s3. */
  static seeded(seed: number): Xoshiro128 {
    const next = splitMix64(BigInt(seed));
    const a = next();
    const b = next();
    const word = (x: bigint, shift: bigint) => Number((x >> shift) & 0xffffffffn);
    return new Xoshiro128(word(a, 0n), word(a, 32n), word(b, 0n), word(b, 32n));
  }

  /** The next output, an unsigned 32-bit integer. */
  next(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /**
   * A uniform integer in [0, n), 1 ≤ n < 2^21 (Lemire's multiply-and-reject: exactly uniform, and x · n stays an
   * exact double below 2^53).
   */
  below(n: number): number {
    let product = this.next() * n;
    // product = high · 2^32 + low, both parts exact (a power-of-two scaling and a floor); no floating-point %.
    let high = Math.floor(product * TWO_TO_MINUS_32);
    let low = product - high * TWO_TO_32;
    if (low < n) {
      const threshold = (TWO_TO_32 - n) % n;
      while (low < threshold) {
        product = this.next() * n;
        high = Math.floor(product * TWO_TO_MINUS_32);
        low = product - high * TWO_TO_32;
      }
    }
    return high;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
