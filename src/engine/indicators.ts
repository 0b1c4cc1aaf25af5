/**
 * Indicators over typed arrays. Each returns a new Float64Array aligned with its input, NaN during the warm-up,
 * in one O(n) pass. Conventions follow the `trading-signals` library (cross-checked in indicators.test.ts):
 * EMA seeded with the first value, RSI with Wilder smoothing seeded by a simple average, Bollinger bands with the
 * population standard deviation, highest/lowest over a window that includes the current bar.
 * Window means are exact (the correctly rounded mean of each window, DESIGN.md "Indicator arithmetic"); EMA and
 * RSI are recursions, not window means, and keep the recursion's own arithmetic (docs/backtesting.md).
 * The input is expected to be finite (bars are validated when stored).
 */

/**
 * Simple moving average over `period` values; defined from index period − 1. Each value is the correctly rounded
 * sum of its window divided by `period`, as Python's `math.fsum(window) / period` (DESIGN.md "Indicator
 * arithmetic"), so two averages of windows with equal exact means are equal: see `RollingSum` below.
 */
export function sma(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period - 1);
  rollingSums(values, period, out, period);
  return out;
}

/*
 * Rolling sums, exactly. The window sum is kept as an unevaluated pair hi + lo (a double-double): each step adds
 * d = x − y (the value entering minus the one leaving) to hi, and adds the exact rounding errors of x − y and of
 * hi + d (TwoSum, Knuth) to lo. hi + lo is then the exact sum of the window, and fl(hi + lo) its correctly
 * rounded value. Why this and not Neumaier's branchy update: the chain from one bar to the next is one addition
 * (hi + d); the error terms hang off it, so the loop runs about as fast as a plain rolling sum would when fused
 * with other work. Exactness: every input is a multiple of q, the unit in the last place of the smallest nonzero
 * input, and so is every term here; lo stays exact while |lo| < 2^53·q. Renormalising (hi, lo) every RENORMALISE
 * bars keeps |lo| within about 2^10 units in the last place of the largest window sum, so the sums are exact
 * whenever the largest |window sum| is below 2^42 times the smallest nonzero |input| (prices from 0.01 up to 40
 * million over windows of 1,000 bars). Beyond that they are still accurate to about 2^-100 relative. A plain
 * rolling sum drifts by ~1e-14 instead, and turns exact ties into crossings.
 */

/** Bars between two renormalisations of a rolling double-double sum. */
export const RENORMALISE = 1024;

/**
 * out[i] = the correctly rounded sum of values[i − period + 1 .. i], divided by `divisor` (one rounding more), for
 * i ≥ period − 1; entries before are left as they are. Exact as described above.
 */
export function rollingSums(values: Float64Array, period: number, out: Float64Array, divisor = 1): void {
  const n = values.length;
  let hi = 0;
  let lo = 0;
  const warm = Math.min(n, period);
  for (let i = 0; i < warm; i++) {
    const x = values[i]!;
    const s = hi + x;
    const b = s - hi;
    lo += hi - (s - b) + (x - b);
    hi = s;
  }
  if (n >= period) out[period - 1] = (hi + lo) / divisor;
  for (let start = period; start < n; start += RENORMALISE) {
    const end = Math.min(n, start + RENORMALISE);
    // Renormalise: hi = fl(hi + lo), lo = the exact remainder (TwoSum).
    const s = hi + lo;
    const b = s - hi;
    lo = hi - (s - b) + (lo - b);
    hi = s;
    for (let i = start; i < end; i++) {
      const x = values[i]!;
      const y = values[i - period]!;
      const d = x - y; // d + ed = x − y exactly
      const bd = d - x;
      const ed = x - (d - bd) - (y + bd);
      const t = hi + d; // t + et = hi + d exactly
      const bt = t - hi;
      const et = hi - (t - bt) + (d - bt);
      lo += et + ed;
      hi = t;
      out[i] = (hi + lo) / divisor;
    }
  }
}

/**
 * Exponential moving average, smoothing k = 2 / (period + 1), seeded with the first value:
 * e[0] = x[0], e[i] = x[i]·k + e[i−1]·(1 − k). Reported from index period − 1 (trading-signals' "stable" point);
 * NaN before. `from` skips leading NaN in the input (the EMA then starts at x[from]).
 */
export function ema(values: Float64Array, period: number, from = 0): Float64Array {
  const out = warmingUp(values.length, from + period - 1);
  emaFrom(values, period, from, out);
  return out;
}

/**
 * `ema(values, period, from)` written into `out` from index from + period − 1 on; the indices before it are left as
 * they are (a sweep reuses one buffer for every signal line of a MACD grid, and no rule reads them).
 */
export function emaFrom(values: Float64Array, period: number, from: number, out: Float64Array): void {
  const n = values.length;
  if (from >= n) return;
  const k = 2 / (period + 1);
  const keep = 1 - k;
  let previous = values[from]!;
  if (period === 1) out[from] = previous;
  for (let i = from + 1; i < n; i++) {
    previous = values[i]! * k + previous * keep;
    if (i >= from + period - 1) out[i] = previous;
  }
}

/**
 * Relative strength index with Wilder's smoothing: the average gain and loss of the first `period` changes are
 * simple means, then avg = avg + (change − avg) / period. RSI = 100 − 100 / (1 + gain/loss); 100 when the average
 * loss is 0 (also on flat prices, as trading-signals does). Defined from index `period`.
 */
export function rsi(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period);
  if (n <= period) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const change = values[i]! - values[i - 1]!;
    if (change > 0) gain += change;
    else loss -= change;
  }
  gain /= period;
  loss /= period;
  out[period] = rsiValue(gain, loss);
  for (let i = period + 1; i < n; i++) {
    const change = values[i]! - values[i - 1]!;
    const up = change > 0 ? change : 0;
    const down = change > 0 ? 0 : -change;
    gain = (up - gain) / period + gain;
    loss = (down - loss) / period + loss;
    out[i] = rsiValue(gain, loss);
  }
  return out;
}

export function rsiValue(gain: number, loss: number): number {
  return loss === 0 ? 100 : 100 - 100 / (gain / loss + 1);
}

export interface Macd {
  /** EMA(fast) − EMA(slow), both EMAs seeded with the first value; defined from index slow − 1. */
  readonly line: Float64Array;
  /** EMA(signalPeriod) of the line, seeded with the line's first value; defined from slow + signal − 2. */
  readonly signal: Float64Array;
  /** line − signal, where both are defined. */
  readonly histogram: Float64Array;
}

export function macd(values: Float64Array, fast: number, slow: number, signalPeriod: number): Macd {
  const n = values.length;
  const fastEma = seededEma(values, fast);
  const slowEma = seededEma(values, slow);
  const line = warmingUp(n, slow - 1);
  for (let i = slow - 1; i < n; i++) line[i] = fastEma[i]! - slowEma[i]!;
  const signal = ema(line, signalPeriod, slow - 1);
  const histogram = new Float64Array(n);
  for (let i = 0; i < n; i++) histogram[i] = line[i]! - signal[i]!;
  return { line, signal, histogram };
}

/** The unmasked EMA (every index, from x[0]): the MACD's two EMAs. */
export function seededEma(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const k = 2 / (period + 1);
  const keep = 1 - k;
  let previous = values[0]!;
  out[0] = previous;
  for (let i = 1; i < n; i++) {
    previous = values[i]! * k + previous * keep;
    out[i] = previous;
  }
  return out;
}

export interface Bands {
  readonly lower: Float64Array;
  readonly middle: Float64Array;
  readonly upper: Float64Array;
}

/**
 * Bollinger bands: middle = SMA(period) (the same correctly rounded means), upper/lower = middle ± width ×
 * the population standard deviation of the same window (divisor `period`, as trading-signals).
 */
export function bollinger(values: Float64Array, period: number, width: number): Bands {
  const n = values.length;
  const middle = sma(values, period);
  const deviation = deviationsFromMeans(values, period, middle);
  const lower = warmingUp(n, period - 1);
  const upper = warmingUp(n, period - 1);
  for (let i = period - 1; i < n; i++) {
    const mean = middle[i]!;
    const band = deviation[i]! * width;
    lower[i] = mean - band;
    upper[i] = mean + band;
  }
  return { lower, middle, upper };
}

/**
 * Population standard deviation of each window values[i − period + 1 .. i]; defined from index period − 1.
 * Two passes per window: the correctly rounded mean (as sma), then the sum of squared deviations from it. No
 * running sum of squares (E[x²] − E[x]² cancels catastrophically on prices) and no rolling update (its rounding
 * errors would accumulate over the whole series): each value depends on its window only, and a flat window has
 * exactly zero deviation. O(n · period): at period 20 about as fast as the rolling update it replaces.
 */
export function stddev(values: Float64Array, period: number): Float64Array {
  return deviationsFromMeans(values, period, sma(values, period));
}

function deviationsFromMeans(values: Float64Array, period: number, means: Float64Array): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period - 1);
  for (let i = period - 1; i < n; i++) {
    const mean = means[i]!;
    let squares = 0;
    for (let j = i - period + 1; j <= i; j++) {
      const d = values[j]! - mean;
      squares += d * d;
    }
    out[i] = Math.sqrt(squares / period);
  }
  return out;
}

/*
 * Window extremes by van Herk / Gil-Werman: cut the series into blocks of `period` bars; the window ending at i
 * covers the tail of one block (a suffix extreme, computed right to left) and the head of the next (a running prefix
 * extreme). Three comparisons per value, no data-dependent branches, in two sequential passes.
 */

/** Highest value of the window values[i − period + 1 .. i]; defined from index period − 1. */
export function highest(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period - 1);
  const suffix = new Float64Array(n);
  for (let blockEnd = Math.min(n, period) - 1; ; blockEnd = Math.min(n - 1, blockEnd + period)) {
    let extreme = -Infinity;
    for (let i = blockEnd, blockStart = blockEnd - (blockEnd % period); i >= blockStart; i--) {
      const v = values[i]!;
      extreme = v > extreme ? v : extreme;
      suffix[i] = extreme;
    }
    if (blockEnd === n - 1) break;
  }
  let prefix = -Infinity;
  for (let i = 0, inBlock = 0; i < n; i++, inBlock++) {
    if (inBlock === period) inBlock = 0;
    const v = values[i]!;
    prefix = inBlock === 0 || v > prefix ? v : prefix;
    if (i >= period - 1) {
      const tail = suffix[i - period + 1]!;
      out[i] = tail > prefix ? tail : prefix;
    }
  }
  return out;
}

/** Lowest value of the window values[i − period + 1 .. i]; defined from index period − 1. */
export function lowest(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period - 1);
  const suffix = new Float64Array(n);
  for (let blockEnd = Math.min(n, period) - 1; ; blockEnd = Math.min(n - 1, blockEnd + period)) {
    let extreme = Infinity;
    for (let i = blockEnd, blockStart = blockEnd - (blockEnd % period); i >= blockStart; i--) {
      const v = values[i]!;
      extreme = v < extreme ? v : extreme;
      suffix[i] = extreme;
    }
    if (blockEnd === n - 1) break;
  }
  let prefix = Infinity;
  for (let i = 0, inBlock = 0; i < n; i++, inBlock++) {
    if (inBlock === period) inBlock = 0;
    const v = values[i]!;
    prefix = inBlock === 0 || v < prefix ? v : prefix;
    if (i >= period - 1) {
      const tail = suffix[i - period + 1]!;
      out[i] = tail < prefix ? tail : prefix;
    }
  }
  return out;
}

/** An output array whose first `firstDefined` entries are NaN; the indicator writes every later entry. */
function warmingUp(n: number, firstDefined: number): Float64Array {
  const out = new Float64Array(n);
  out.fill(NaN, 0, Math.min(n, Math.max(0, firstDefined)));
  return out;
}
