/**
 * Modeled option prices, pure (no I/O): European Black–Scholes without dividends, and the realized volatility it is
 * fed with (DESIGN "Options strategies in backtests (modeled prices)"; paper options orders fill at these prices).
 * T is calendar days to expiry / 365.
 */

export type OptionRight = 'call' | 'put';

export interface OptionInputs {
  readonly right: OptionRight;
  /** The underlying's price. */
  readonly spot: number;
  readonly strike: number;
  /** Years to expiry (calendar days / 365); 0 at expiry. */
  readonly years: number;
  /** Annualized volatility (0.2 = 20 %). */
  readonly volatility: number;
  /** Continuously compounded risk-free rate; 0 unless told. */
  readonly rate?: number;
}

/** Trading days a year: realized volatility is annualized by √252. */
const TRADING_DAYS = 252;
/** Returns a realized volatility is measured over: 20, so 21 closes. */
export const VOLATILITY_RETURNS = 20;

/** The Black–Scholes price of one share's worth of the option. At T = 0 or σ = 0 it is the (discounted) intrinsic value. */
export function blackScholesPrice(option: OptionInputs): number {
  const { right, spot, strike, years, volatility } = option;
  const rate = option.rate ?? 0;
  const discounted = strike * Math.exp(-rate * years);
  const spread = volatility * Math.sqrt(years);
  if (spread === 0) return Math.max(0, right === 'call' ? spot - discounted : discounted - spot);
  const d1 = (Math.log(spot / strike) + (rate + (volatility * volatility) / 2) * years) / spread;
  const d2 = d1 - spread;
  return right === 'call' ? spot * normalCdf(d1) - discounted * normalCdf(d2) : discounted * normalCdf(-d2) - spot * normalCdf(-d1);
}

/** Calendar days to expiry as Black–Scholes' T. */
export function yearsToExpiry(calendarDays: number): number {
  return Math.max(0, calendarDays) / 365;
}

/**
 * The sample standard deviation (n − 1) of the last 20 daily log returns of `closes` (oldest first) × √252, or null
 * with fewer than 21 closes. `end` (default: all of them) ends the closes read, so a replay asks for bar t's
 * volatility as `realizedVolatility(closes, t + 1)` without copying.
 */
export function realizedVolatility(closes: ArrayLike<number>, end: number = closes.length): number | null {
  if (end < VOLATILITY_RETURNS + 1) return null;
  const first = end - VOLATILITY_RETURNS;
  let sum = 0;
  for (let i = first; i < end; i++) sum += Math.log(closes[i]! / closes[i - 1]!);
  const mean = sum / VOLATILITY_RETURNS;
  let squares = 0;
  for (let i = first; i < end; i++) squares += (Math.log(closes[i]! / closes[i - 1]!) - mean) ** 2;
  return Math.sqrt((squares / (VOLATILITY_RETURNS - 1)) * TRADING_DAYS);
}

/**
 * The standard normal CDF to double precision (absolute error about 1e-16; relative 1e-10 down to −5, 1e-8 in the
 * far tail): Hart's rational approximation as given by G. West, "Better approximations to cumulative normal
 * functions" (2005), and a continued fraction beyond 7.07. Abramowitz–Stegun 26.2.17 (7.5e-8) is too coarse for far
 * out-of-the-money legs.
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  let tail: number;
  if (z > 37) {
    tail = 0;
  } else {
    const gauss = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      const numerator = polynomial(z, [220.206867912376, 221.213596169931, 112.079291497871, 33.912866078383, 6.37396220353165, 0.700383064443688, 3.52624965998911e-2]);
      const denominator = polynomial(z, [440.413735824752, 793.826512519948, 637.333633378831, 296.564248779674, 86.7807322029461, 16.064177579207, 1.75566716318264, 8.83883476483184e-2]);
      tail = (gauss * numerator) / denominator;
    } else {
      const fraction = z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))));
      tail = gauss / fraction / 2.506628274631;
    }
  }
  return x > 0 ? 1 - tail : tail;
}

/** c0 + c1·x + c2·x² + … (Horner). */
function polynomial(x: number, coefficients: readonly number[]): number {
  return coefficients.reduceRight((sum, c) => sum * x + c, 0);
}
