/**
 * Delta and the strikes a strategy's spec asks for, pure (no I/O). Black–Scholes without dividends, as
 * black-scholes.ts prices; T is calendar days / 365. A put's delta is negative; a spec's `short_delta` is the
 * absolute delta (0.16 means the call of delta 0.16 or the put of delta −0.16).
 */
import { normalCdf, type OptionInputs, type OptionRight } from './black-scholes.js';

/** ∂price/∂spot: N(d1) for a call, N(d1) − 1 for a put. At T = 0 or σ = 0, the step of the (discounted) intrinsic value. */
export function blackScholesDelta(option: OptionInputs): number {
  const { right, spot, strike, years, volatility } = option;
  const rate = option.rate ?? 0;
  const spread = volatility * Math.sqrt(years);
  const callDelta = spread === 0 ? (spot > strike * Math.exp(-rate * years) ? 1 : 0) : normalCdf((Math.log(spot / strike) + (rate + (volatility * volatility) / 2) * years) / spread);
  return right === 'call' ? callDelta : callDelta - 1;
}

export interface StrikeTargetInputs {
  readonly right: OptionRight;
  readonly spot: number;
  readonly years: number;
  readonly volatility: number;
  readonly rate?: number;
}

/**
 * The (unrounded) strike whose delta is `absoluteDelta` in size (0 < Δ < 1): a call of delta Δ or a put of delta −Δ.
 * Closed form: N(d1) = Δ for a call, 1 − Δ for a put, so K = S·exp((r + σ²/2)T − N⁻¹(N(d1))·σ√T). With σ√T = 0 every
 * strike's delta is 0 or 1, so the answer is the forward S·e^(rT), the one strike between them.
 */
export function strikeForDelta(target: StrikeTargetInputs, absoluteDelta: number): number {
  if (!(absoluteDelta > 0 && absoluteDelta < 1)) throw new RangeError(`A target delta is between 0 and 1 (exclusive): ${absoluteDelta}.`);
  const { spot, years, volatility } = target;
  const rate = target.rate ?? 0;
  const spread = volatility * Math.sqrt(years);
  if (spread === 0) return spot * Math.exp(rate * years);
  // A put's delta is N(d1) − 1, so d1 = N⁻¹(1 − δ) = −N⁻¹(δ): written the second way, a tiny δ (1e-300) does not round 1 − δ to 1.
  const d1 = target.right === 'call' ? inverseNormalCdf(absoluteDelta) : -inverseNormalCdf(absoluteDelta);
  return spot * Math.exp((rate + (volatility * volatility) / 2) * years - d1 * spread);
}

/** The (unrounded) strike `otmPct` out of the money (0.05 = 5 %): S × (1 − p) for a put, S × (1 + p) for a call. */
export function strikeForOtmPct(right: OptionRight, spot: number, otmPct: number): number {
  return right === 'put' ? spot * (1 - otmPct) : spot * (1 + otmPct);
}

/**
 * N⁻¹(p), 0 < p < 1: P. J. Acklam's rational approximation (relative error 1.15e-9) refined by one Halley step on
 * normalCdf, which brings it to about double precision.
 */
export function inverseNormalCdf(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`N⁻¹ needs 0 < p < 1: ${p}.`);
  const LOW = 0.02425;
  let x: number;
  if (p < LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = tail(q);
  } else if (p > 1 - LOW) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -tail(q);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((-3.969683028665376e1 * r + 2.209460984245205e2) * r - 2.759285104469687e2) * r + 1.38357751867269e2) * r - 3.066479806614716e1) * r + 2.506628277459239) * q) /
      (((((-5.447609879822406e1 * r + 1.615858368580409e2) * r - 1.556989798598866e2) * r + 6.680131188771972e1) * r - 1.328068155288572e1) * r + 1);
  }
  const error = normalCdf(x) - p;
  const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  // Beyond |x| ≈ 37 normalCdf is 0 (or 1) and e^(x²/2) overflows: the step has nothing to refine there.
  if (!Number.isFinite(u)) return x;
  return x - u / (1 + (x * u) / 2);
}

/** Acklam's lower-tail branch, for q = √(−2 ln p). */
function tail(q: number): number {
  return (
    (((((-7.784894002430293e-3 * q - 3.223964580411365e-1) * q - 2.400758277161838) * q - 2.549732539343734) * q + 4.374664141464968) * q + 2.938163982698783) /
    ((((7.784695709041462e-3 * q + 3.224671290700398e-1) * q + 2.445134137142996) * q + 3.754408661907416) * q + 1)
  );
}
