/**
 * The number a box holds, or NaN unless it is written as a plain decimal: `5000`, `5,000`, `0.5`, `-10`.
 * The boxes are text boxes: a browser's number box reports what it cannot read as empty, which here would mean
 * "no limit"; and `Number` alone reads `0x10` and `1e3`, which nobody types as an amount.
 */
export function decimalOf(typed: string): number {
  const text = typed.trim();
  return /^-?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.test(text) && /\d/.test(text) ? Number(text.replace(/,/g, '')) : NaN;
}

/** A fraction as the percentage typed for it: 0.07 → "7" (not 7.000000000000001). */
export function percentOf(fraction: number): string {
  return String(Number((fraction * 100).toPrecision(12)));
}

/** A percentage typed as the fraction stored: "20" → 0.2. */
export function fractionOf(percent: number): number {
  return Number((percent / 100).toPrecision(12));
}
