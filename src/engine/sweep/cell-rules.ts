/**
 * The fast path of a sweep: each indicator series is computed once per call (each SMA or EMA period, each MACD
 * line and signal line, each RSI period, each Bollinger period's mean and deviation, each Donchian channel) and kept
 * for every cell that needs it; each cell's rule scans those arrays for the signal that acts, and each cell is one
 * tight loop (rule-cell.ts). The arrays are the generic path's indicators (indicators.ts), which the fused runs are
 * held to bit for bit, and every signal is the generic rule's comparison (signals.ts), so each cell's metrics are
 * runTemplateBacktest's (sweep-cells.test.ts).
 */
import { ema, emaFrom, highest, lowest, rsi, seededEma, sma, stddev } from '../indicators.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { CellRule } from './rule-cell.js';

/** A cell's rule, or null to leave the cell to runTemplateBacktest (too few bars to trade, odd periods). */
export type CellRules = (params: ResolvedParameters) => CellRule | null;

/** Each series computed on first use and kept for the rest of the call. */
class SeriesCache {
  readonly #made = new Map<string, Float64Array>();

  get(key: string, make: () => Float64Array): Float64Array {
    let series = this.#made.get(key);
    if (series === undefined) {
      series = make();
      this.#made.set(key, series);
    }
    return series;
  }
}

const wholePeriods = (...periods: number[]): boolean => periods.every((p) => Number.isInteger(p) && p >= 1);

/** The rules of each template with a fast path, sharing one series cache for the call; undefined for the others. */
export function cellRules(templateId: string, bars: BarSeries): CellRules | undefined {
  const cache = new SeriesCache();
  const { close, high, low } = bars;
  const n = close.length;
  const usable = (first: number) => first >= 2 && n > first;
  switch (templateId) {
    case 'sma_crossover':
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const first = Math.max(fastPeriod, slowPeriod);
        if (!wholePeriods(fastPeriod, slowPeriod) || !usable(first)) return null;
        const fast = cache.get(`sma ${fastPeriod}`, () => sma(close, fastPeriod));
        const slow = cache.get(`sma ${slowPeriod}`, () => sma(close, slowPeriod));
        return crossoverRule(fast, slow, first);
      };
    case 'ema_crossover':
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const first = Math.max(fastPeriod, slowPeriod);
        if (!wholePeriods(fastPeriod, slowPeriod) || !usable(first)) return null;
        const fast = cache.get(`ema ${fastPeriod}`, () => ema(close, fastPeriod));
        const slow = cache.get(`ema ${slowPeriod}`, () => ema(close, slowPeriod));
        return crossoverRule(fast, slow, first);
      };
    case 'macd_crossover': {
      // The MACD line of one (fast, slow) and its signal line are kept only until a cell needs another: one array
      // each per cell of a fast × slow grid would hold 2 · 10,000 series. Consecutive cells share them when the
      // grid sweeps signal_period (the last axis): (fast, signal) and (slow, signal) grids compute each line once.
      // The buffers are read only while the cell that asked for them runs (sweepCells runs one cell at a time).
      const line = new Float64Array(n);
      const signal = new Float64Array(n);
      let lineKey = '';
      let signalKey = '';
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const signalPeriod = p.signal_period!;
        // The line is defined from bar slowPeriod − 1, its signal line from first − 1 (as fused/macd-crossover.ts).
        const lineFrom = slowPeriod - 1;
        const first = lineFrom + signalPeriod;
        if (!wholePeriods(fastPeriod, slowPeriod, signalPeriod) || !usable(first)) return null;
        // indicators.ts macd: both EMAs seeded with the first close and written at every bar, shared by the lines.
        const fastEma = cache.get(`ema* ${fastPeriod}`, () => seededEma(close, fastPeriod));
        const slowEma = cache.get(`ema* ${slowPeriod}`, () => seededEma(close, slowPeriod));
        if (lineKey !== `${fastPeriod} ${slowPeriod}`) {
          lineKey = `${fastPeriod} ${slowPeriod}`;
          signalKey = '';
          for (let i = lineFrom; i < n; i++) line[i] = fastEma[i]! - slowEma[i]!;
        }
        if (signalKey !== `${signalPeriod}`) {
          signalKey = `${signalPeriod}`;
          emaFrom(line, signalPeriod, lineFrom, signal);
        }
        return crossoverRule(line, signal, first);
      };
    }
    case 'rsi_reversion':
      return (p) => {
        const period = p.period!;
        const first = period + 1; // the RSI is defined from bar period
        if (!wholePeriods(period) || !usable(first)) return null;
        return rsiRule(cache.get(`rsi ${period}`, () => rsi(close, period)), p.oversold!, p.overbought!, first);
      };
    case 'bollinger_reversion':
      return (p) => {
        const period = p.period!;
        const first = period; // the bands are defined from bar period − 1
        if (!wholePeriods(period) || !usable(first)) return null;
        const middle = cache.get(`sma ${period}`, () => sma(close, period));
        const deviation = cache.get(`stddev ${period}`, () => stddev(close, period));
        return bollingerRule(close, middle, deviation, p.std_dev!, first);
      };
    case 'donchian_breakout':
      return (p) => {
        const entryPeriod = p.entry_period!;
        const exitPeriod = p.exit_period!;
        const first = entryPeriod; // the upper channel of the previous entryPeriod bars exists from bar entryPeriod
        if (!wholePeriods(entryPeriod, exitPeriod) || !usable(first)) return null;
        const upper = cache.get(`highest ${entryPeriod}`, () => highest(high, entryPeriod));
        const lower = cache.get(`lowest ${exitPeriod}`, () => lowest(low, exitPeriod));
        return donchianRule(close, upper, lower, first);
      };
    default:
      return undefined;
  }
}

/**
 * signals.ts crossing: ENTER where fast goes from ≤ slow to > slow, EXIT from ≥ to <. Both series are defined from
 * bar first − 1 and never NaN after, so "≤ on the bar before" is "not > on the bar before".
 */
function crossoverRule(fast: Float64Array, slow: Float64Array, first: number): CellRule {
  const n = fast.length;
  return {
    first,
    nextEnter(t) {
      let before = fast[t - 1]! <= slow[t - 1]!;
      while (t < n) {
        const above = fast[t]! > slow[t]!;
        t++;
        if (above && before) return t;
        before = !above;
      }
      return n;
    },
    nextExit(t) {
      let before = fast[t - 1]! >= slow[t - 1]!;
      while (t < n) {
        const below = fast[t]! < slow[t]!;
        t++;
        if (below && before) return t;
        before = !below;
      }
      return n;
    },
  };
}

/** signals.ts rsi_reversion: ENTER on a fall below oversold, else EXIT on a rise above overbought. */
function rsiRule(values: Float64Array, oversold: number, overbought: number, first: number): CellRule {
  const n = values.length;
  const enters = (t: number) => values[t - 1]! >= oversold && values[t]! < oversold;
  return {
    first,
    nextEnter(t) {
      for (; t < n; t++) if (enters(t)) return t + 1;
      return n;
    },
    nextExit(t) {
      for (; t < n; t++) if (values[t - 1]! <= overbought && values[t]! > overbought && !enters(t)) return t + 1;
      return n;
    },
  };
}

/**
 * signals.ts bollinger_reversion: ENTER as the close falls below the lower band, EXIT as it rises above the middle.
 * The lower band as indicators.ts bollinger computes it: mean − deviation × width.
 */
function bollingerRule(close: Float64Array, middle: Float64Array, deviation: Float64Array, width: number, first: number): CellRule {
  const n = close.length;
  return {
    first,
    nextEnter(t) {
      let lowerBefore = middle[t - 1]! - deviation[t - 1]! * width;
      for (; t < n; t++) {
        const lower = middle[t]! - deviation[t]! * width;
        if (close[t - 1]! >= lowerBefore && close[t]! < lower) return t + 1;
        lowerBefore = lower;
      }
      return n;
    },
    nextExit(t) {
      for (; t < n; t++) if (close[t - 1]! <= middle[t - 1]! && close[t]! > middle[t]!) return t + 1;
      return n;
    },
  };
}

/** signals.ts donchian_breakout: ENTER above the previous bars' highest high, EXIT below their lowest low. */
function donchianRule(close: Float64Array, upper: Float64Array, lower: Float64Array, first: number): CellRule {
  const n = close.length;
  return {
    first,
    nextEnter(t) {
      for (; t < n; t++) if (close[t]! > upper[t - 1]!) return t + 1;
      return n;
    },
    nextExit(t) {
      for (; t < n; t++) if (close[t]! < lower[t - 1]!) return t + 1;
      return n;
    },
  };
}

