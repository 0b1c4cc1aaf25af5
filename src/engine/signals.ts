/**
 * The trading rules of each template, as signals on each bar's close: ENTER (buy if flat) and EXIT (sell if long).
 * The simulation (simulate.ts) fills a signal of bar t at the open of bar t + 1, so no rule can look ahead.
 * Crossovers follow DESIGN.md: crossesAbove(a, b) at t is a[t−1] <= b[t−1] and a[t] > b[t]; crossesBelow mirrors
 * it with >= and <. A comparison with NaN (an indicator still warming up) is false, so no signal fires before both
 * sides are defined on bars t − 1 and t.
 */
import { bollinger, ema, highest, lowest, macd, rsi, sma } from './indicators.js';
import type { BarSeries, ResolvedParameters } from './types.js';

export const ENTER = 1;
export const EXIT = 2;

export type SignalRule = (bars: BarSeries, params: ResolvedParameters) => Uint8Array;

export const TEMPLATE_SIGNALS: Readonly<Record<string, SignalRule>> = {
  buy_and_hold: (bars) => {
    const signals = new Uint8Array(bars.close.length);
    if (signals.length > 0) signals[0] = ENTER;
    return signals;
  },
  sma_crossover: (bars, p) => crossSignals(sma(bars.close, p.fast_period!), sma(bars.close, p.slow_period!)),
  ema_crossover: (bars, p) => crossSignals(ema(bars.close, p.fast_period!), ema(bars.close, p.slow_period!)),
  macd_crossover: (bars, p) => {
    const { line, signal } = macd(bars.close, p.fast_period!, p.slow_period!, p.signal_period!);
    return crossSignals(line, signal);
  },
  rsi_reversion: (bars, p) => {
    const values = rsi(bars.close, p.period!);
    const oversold = p.oversold!;
    const overbought = p.overbought!;
    const signals = new Uint8Array(values.length);
    for (let t = 1; t < values.length; t++) {
      const before = values[t - 1]!;
      const now = values[t]!;
      if (before >= oversold && now < oversold) signals[t] = ENTER;
      else if (before <= overbought && now > overbought) signals[t] = EXIT;
    }
    return signals;
  },
  bollinger_reversion: (bars, p) => {
    const close = bars.close;
    const { lower, middle } = bollinger(close, p.period!, p.std_dev!);
    const signals = new Uint8Array(close.length);
    for (let t = 1; t < close.length; t++) {
      const enter = close[t - 1]! >= lower[t - 1]! && close[t]! < lower[t]!;
      const exit = close[t - 1]! <= middle[t - 1]! && close[t]! > middle[t]!;
      signals[t] = (enter ? ENTER : 0) | (exit ? EXIT : 0);
    }
    return signals;
  },
  donchian_breakout: (bars, p) => {
    const close = bars.close;
    const upper = highest(bars.high, p.entry_period!);
    const lower = lowest(bars.low, p.exit_period!);
    const signals = new Uint8Array(close.length);
    for (let t = 1; t < close.length; t++) {
      // Channels of the previous bars (t − period .. t − 1): today's own high and low are not part of them.
      signals[t] = (close[t]! > upper[t - 1]! ? ENTER : 0) | (close[t]! < lower[t - 1]! ? EXIT : 0);
    }
    return signals;
  },
};

/** ENTER where `fast` crosses above `slow`, EXIT where it crosses below. */
function crossSignals(fast: Float64Array, slow: Float64Array): Uint8Array {
  const n = fast.length;
  const signals = new Uint8Array(n);
  let fastBefore = fast[0] ?? NaN;
  let slowBefore = slow[0] ?? NaN;
  for (let t = 1; t < n; t++) {
    const fastNow = fast[t]!;
    const slowNow = slow[t]!;
    signals[t] = crossing(fastBefore, slowBefore, fastNow, slowNow);
    fastBefore = fastNow;
    slowBefore = slowNow;
  }
  return signals;
}

/** ENTER where fast crosses above slow between two bars, EXIT where it crosses below, else 0 (also for the fused runs). */
export function crossing(fastBefore: number, slowBefore: number, fastNow: number, slowNow: number): number {
  if (fastBefore <= slowBefore && fastNow > slowNow) return ENTER;
  if (fastBefore >= slowBefore && fastNow < slowNow) return EXIT;
  return 0;
}
