/**
 * Paper money in whole cents. Prices stay as stored (doubles from the bars, such as 1455.219971); an amount of
 * money is computed once, exactly, from the price's shortest decimal form (what `String(price)` writes) and rounded
 * half away from zero to the cent. Cash, cost bases and realized P&L are sums of such integers, so a thousand
 * trades leave the balance exact to the cent. Pure: no I/O.
 */

export const STARTING_CASH_CENTS = 10_000_000;

/** An amount of cents beyond 2^53 (exact integers end there): the placement answers it 422 `amount_out_of_range`. */
export class MoneyOutOfRange extends RangeError {}

/** `value` when it is a safe integer of cents, else MoneyOutOfRange (cash, a cost basis or realized P&L would stop being exact). */
export function safeCents(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new MoneyOutOfRange(`${what} beyond 2^53 cents`);
  return value;
}

/** qty × price × multiplier in whole cents (negative for a negative price), rounded half away from zero. */
export function amountCents(qty: number, price: number, multiplier = 1): number {
  if (!Number.isSafeInteger(qty) || !Number.isSafeInteger(multiplier)) throw new RangeError('qty and multiplier are integers');
  if (!Number.isFinite(price)) throw new RangeError('price is finite');
  const { digits, scale } = decimalOf(price);
  // cents = qty × multiplier × digits × 100 / 10^scale
  const numerator = BigInt(qty) * BigInt(multiplier) * digits * 100n;
  return toSafeNumber(divideRounded(numerator, 10n ** BigInt(scale)));
}

/**
 * qty × (minuend − subtrahend) × multiplier in whole cents, rounded half away from zero once, on the exact difference
 * of the two prices' decimal forms (1455.219971 − 1400 is 55.219971, never 55.21997100000001): an option's intrinsic
 * value at settlement.
 */
export function differenceCents(qty: number, minuend: number, subtrahend: number, multiplier = 1): number {
  if (!Number.isSafeInteger(qty) || !Number.isSafeInteger(multiplier)) throw new RangeError('qty and multiplier are integers');
  if (!Number.isFinite(minuend) || !Number.isFinite(subtrahend)) throw new RangeError('prices are finite');
  const a = decimalOf(minuend);
  const b = decimalOf(subtrahend);
  const scale = Math.max(a.scale, b.scale);
  const digits = a.digits * 10n ** BigInt(scale - a.scale) - b.digits * 10n ** BigInt(scale - b.scale);
  return toSafeNumber(divideRounded(BigInt(qty) * BigInt(multiplier) * digits * 100n, 10n ** BigInt(scale)));
}

/** The share of `cost` that `part` of `whole` units carry, in cents, rounded half away from zero (all of it when part = whole). */
export function proportionalCents(cost: number, part: number, whole: number): number {
  if (part === whole) return cost;
  return toSafeNumber(divideRounded(BigInt(cost) * BigInt(part), BigInt(whole)));
}

/** Cents as an amount of money for a response body (exact to the cent: n / 100 is the nearest double to it). */
export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** An average price for a response body: cost ÷ (qty × multiplier), rounded to 8 decimals (a price, not money). */
export function averagePrice(costCents: number, qty: number, multiplier = 1): number {
  if (qty === 0) return 0;
  return Math.round((costCents / 100 / (qty * multiplier)) * 1e8) / 1e8;
}

function decimalOf(price: number): { digits: bigint; scale: number } {
  const [mantissa, exponentText] = String(price).toLowerCase().split('e') as [string, string | undefined];
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = mantissa.replace('-', '').split('.') as [string, string | undefined];
  let digits = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: negative ? -digits : digits, scale };
}

function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw new MoneyOutOfRange('amount beyond 2^53 cents');
  return Number(value);
}
