/**
 * Indicators over typed arrays. Each returns a new Float64Array aligned with its input, NaN during the warm-up,
 * in one O(n) pass. Conventions follow the `trading-signals` library (cross-checked in indicators.test.ts):
 * EMA seeded with the first value, RSI with Wilder smoothing seeded by a simple average, Bollinger bands with the
 * population standard deviation, highest/lowest over a window that includes the current bar.
 * The input is expected to be finite (bars are validated when stored).
 */

/** Simple moving average over `period` values; defined from index period − 1. */
export function sma(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = warmingUp(n, period - 1);
  let sum = 0;
  for (let i = 0; i < n && i < period; i++) sum += values[i]!;
  if (n >= period) out[period - 1] = sum / period;
  for (let i = period; i < n; i++) {
    // The difference first, so that a run of equal values leaves the sum exactly unchanged.
    sum += values[i]! - values[i - period]!;
    out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average, smoothing k = 2 / (period + 1), seeded with the first value:
 * e[0] = x[0], e[i] = x[i]·k + e[i−1]·(1 − k). Reported from index period − 1 (trading-signals' "stable" point);
 * NaN before. `from` skips leading NaN in the input (the EMA then starts at x[from]).
 */
export function ema(values: Float64Array, period: number, from = 0): Float64Array {
  const n = values.length;
  const out = warmingUp(n, from + period - 1);
  const k = 2 / (period + 1);
  const keep = 1 - k;
  if (from >= n) return out;
  let previous = values[from]!;
  if (period === 1) out[from] = previous;
  for (let i = from + 1; i < n; i++) {
    previous = values[i]! * k + previous * keep;
    if (i >= from + period - 1) out[i] = previous;
  }
  return out;
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

function rsiValue(gain: number, loss: number): number {
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
  const fastEma = new Float64Array(n);
  const slowEma = new Float64Array(n);
  emaInto(values, fast, fastEma);
  emaInto(values, slow, slowEma);
  const line = warmingUp(n, slow - 1);
  for (let i = slow - 1; i < n; i++) line[i] = fastEma[i]! - slowEma[i]!;
  const signal = ema(line, signalPeriod, slow - 1);
  const histogram = new Float64Array(n);
  for (let i = 0; i < n; i++) histogram[i] = line[i]! - signal[i]!;
  return { line, signal, histogram };
}

/** The unmasked EMA (every index, from x[0]) written into `out`. */
function emaInto(values: Float64Array, period: number, out: Float64Array): void {
  const n = values.length;
  if (n === 0) return;
  const k = 2 / (period + 1);
  const keep = 1 - k;
  let previous = values[0]!;
  out[0] = previous;
  for (let i = 1; i < n; i++) {
    previous = values[i]! * k + previous * keep;
    out[i] = previous;
  }
}

export interface Bands {
  readonly lower: Float64Array;
  readonly middle: Float64Array;
  readonly upper: Float64Array;
}

/**
 * Bollinger bands: middle = SMA(period), upper/lower = middle ± width × population standard deviation of the same
 * window (divisor `period`, as trading-signals). Rolling Welford update, so a flat window has exactly zero width.
 */
export function bollinger(values: Float64Array, period: number, width: number): Bands {
  const n = values.length;
  const lower = warmingUp(n, period - 1);
  const middle = warmingUp(n, period - 1);
  const upper = warmingUp(n, period - 1);
  if (n < period) return { lower, middle, upper };
  let mean = 0;
  for (let i = 0; i < period; i++) mean += values[i]!;
  mean /= period;
  let squares = 0; // sum of squared deviations from the mean over the window
  for (let i = 0; i < period; i++) {
    const d = values[i]! - mean;
    squares += d * d;
  }
  for (let i = period - 1; i < n; i++) {
    if (i >= period) {
      const added = values[i]!;
      const removed = values[i - period]!;
      const previousMean = mean;
      mean += (added - removed) / period;
      squares += (added - removed) * (added - mean + removed - previousMean);
      if (squares < 0) squares = 0;
    }
    const deviation = Math.sqrt(squares / period) * width;
    middle[i] = mean;
    lower[i] = mean - deviation;
    upper[i] = mean + deviation;
  }
  return { lower, middle, upper };
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
