/**
 * Hand-written reference loops for the engine bench (issue 17): for each template, one plain loop over the bars
 * doing that template's work the way one would write it for speed alone: the indicators as plain running values
 * (plain sums, no exact arithmetic), the crossing or threshold test, next-open all-in fills on whole shares, and
 * an equity value per bar into a Float64Array. No trades list, drawdowns or metrics: the template backtest does all
 * of that on top, so the ratio template / reference says how close the engine runs to the machine's limit.
 * Each returns the final equity (so the work cannot be optimised away).
 */
import type { BarSeries, ResolvedParameters } from '../src/engine/types.js';

export type ReferenceLoop = (bars: BarSeries, params: ResolvedParameters, capital: number) => number;

/*
 * Every loop below keeps the same fill state: `pending` is the signal of the previous close (1 buy, 2 sell), acted on
 * at this bar's open (bollinger may raise both on one bar: the position decides which acts); then this bar's equity;
 * then this bar's signal. Written out in each loop (no helper call per
 * bar), as a hand-written loop would be.
 */

export const REFERENCE_LOOPS: Readonly<Record<string, ReferenceLoop>> = {
  buy_and_hold: ({ open, close }, _p, capital) => {
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    for (let t = 0; t < n; t++) {
      if (t === 1) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      }
      equity[t] = cash + shares * close[t]!;
    }
    return equity[n - 1]!;
  },

  sma_crossover: ({ open, close }, p, capital) => {
    const fast = p.fast_period!;
    const slow = p.slow_period!;
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    let pending = 0;
    let fastSum = 0;
    let slowSum = 0;
    let fastBefore = NaN;
    let slowBefore = NaN;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      const x = close[t]!;
      fastSum += x - (t >= fast ? close[t - fast]! : 0);
      slowSum += x - (t >= slow ? close[t - slow]! : 0);
      const fastNow = t >= fast - 1 ? fastSum / fast : NaN;
      const slowNow = t >= slow - 1 ? slowSum / slow : NaN;
      if (fastBefore <= slowBefore && fastNow > slowNow) pending = 1;
      else if (fastBefore >= slowBefore && fastNow < slowNow) pending = 2;
      fastBefore = fastNow;
      slowBefore = slowNow;
    }
    return equity[n - 1]!;
  },

  ema_crossover: ({ open, close }, p, capital) => {
    const fast = p.fast_period!;
    const slow = p.slow_period!;
    const kf = 2 / (fast + 1);
    const ks = 2 / (slow + 1);
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    let pending = 0;
    let fastEma = close[0]!;
    let slowEma = close[0]!;
    let fastBefore = NaN;
    let slowBefore = NaN;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      const x = close[t]!;
      if (t > 0) {
        fastEma = x * kf + fastEma * (1 - kf);
        slowEma = x * ks + slowEma * (1 - ks);
      }
      const fastNow = t >= fast - 1 ? fastEma : NaN;
      const slowNow = t >= slow - 1 ? slowEma : NaN;
      if (fastBefore <= slowBefore && fastNow > slowNow) pending = 1;
      else if (fastBefore >= slowBefore && fastNow < slowNow) pending = 2;
      fastBefore = fastNow;
      slowBefore = slowNow;
    }
    return equity[n - 1]!;
  },

  rsi_reversion: ({ open, close }, p, capital) => {
    const period = p.period!;
    const oversold = p.oversold!;
    const overbought = p.overbought!;
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    let pending = 0;
    let gain = 0;
    let loss = 0;
    let before = NaN;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      if (t === 0) continue;
      const change = close[t]! - close[t - 1]!;
      const up = change > 0 ? change : 0;
      const down = change > 0 ? 0 : -change;
      if (t <= period) {
        gain += up / period;
        loss += down / period;
      } else {
        gain += (up - gain) / period;
        loss += (down - loss) / period;
      }
      const now = t >= period ? (loss === 0 ? 100 : 100 - 100 / (gain / loss + 1)) : NaN;
      if (before >= oversold && now < oversold) pending = 1;
      else if (before <= overbought && now > overbought) pending = 2;
      before = now;
    }
    return equity[n - 1]!;
  },

  bollinger_reversion: ({ open, close }, p, capital) => {
    const period = p.period!;
    const width = p.std_dev!;
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    let pending = 0;
    let sum = 0;
    let lowerBefore = NaN;
    let middleBefore = NaN;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      const x = close[t]!;
      sum += x - (t >= period ? close[t - period]! : 0);
      const middle = t >= period - 1 ? sum / period : NaN;
      // The deviation from the window's mean, window by window (the engine's stable two-pass computation).
      let squares = 0;
      for (let j = Math.max(0, t - period + 1); j <= t; j++) squares += (close[j]! - middle) * (close[j]! - middle);
      const lower = middle - width * Math.sqrt(squares / period);
      if (t > 0) pending = (close[t - 1]! >= lowerBefore && x < lower ? 1 : 0) | (close[t - 1]! <= middleBefore && x > middle ? 2 : 0);
      lowerBefore = lower;
      middleBefore = middle;
    }
    return equity[n - 1]!;
  },

  macd_crossover: ({ open, close }, p, capital) => {
    const kf = 2 / (p.fast_period! + 1);
    const ks = 2 / (p.slow_period! + 1);
    const kg = 2 / (p.signal_period! + 1);
    const lineFrom = p.slow_period! - 1;
    const signalFrom = lineFrom + p.signal_period! - 1;
    const n = close.length;
    const equity = new Float64Array(n);
    let cash = capital;
    let shares = 0;
    let pending = 0;
    let fastEma = close[0]!;
    let slowEma = close[0]!;
    let signalEma = NaN;
    let lineBefore = NaN;
    let signalBefore = NaN;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      const x = close[t]!;
      if (t > 0) {
        fastEma = x * kf + fastEma * (1 - kf);
        slowEma = x * ks + slowEma * (1 - ks);
      }
      const line = t >= lineFrom ? fastEma - slowEma : NaN;
      if (t === lineFrom) signalEma = line;
      else if (t > lineFrom) signalEma = line * kg + signalEma * (1 - kg);
      const signal = t >= signalFrom ? signalEma : NaN;
      if (lineBefore <= signalBefore && line > signal) pending = 1;
      else if (lineBefore >= signalBefore && line < signal) pending = 2;
      lineBefore = line;
      signalBefore = signal;
    }
    return equity[n - 1]!;
  },

  donchian_breakout: ({ open, close, high, low }, p, capital) => {
    const entry = p.entry_period!;
    const exit = p.exit_period!;
    const n = close.length;
    const equity = new Float64Array(n);
    // Monotonic deques of bar indices (ring buffers): the front is the window's highest high / lowest low.
    const highs = new Int32Array(entry + 1);
    const lows = new Int32Array(exit + 1);
    let hHead = 0;
    let hSize = 0;
    let lHead = 0;
    let lSize = 0;
    let cash = capital;
    let shares = 0;
    let pending = 0;
    for (let t = 0; t < n; t++) {
      if (pending & 1 && shares === 0) {
        shares = Math.floor(cash / open[t]!);
        cash -= shares * open[t]!;
      } else if (pending & 2 && shares > 0) {
        cash += shares * open[t]!;
        shares = 0;
      }
      pending = 0;
      equity[t] = cash + shares * close[t]!;
      // Channels of the previous bars t − period .. t − 1, before bar t joins them.
      const upper = t >= entry ? high[highs[hHead]!]! : NaN;
      const lower = t >= exit ? low[lows[lHead]!]! : NaN;
      if (close[t]! > upper) pending = 1;
      else if (close[t]! < lower) pending = 2;
      if (hSize > 0 && highs[hHead]! <= t - entry) {
        hHead = hHead === entry ? 0 : hHead + 1;
        hSize--;
      }
      while (hSize > 0 && high[highs[(hHead + hSize - 1) % (entry + 1)]!]! <= high[t]!) hSize--;
      highs[(hHead + hSize) % (entry + 1)] = t;
      hSize++;
      if (lSize > 0 && lows[lHead]! <= t - exit) {
        lHead = lHead === exit ? 0 : lHead + 1;
        lSize--;
      }
      while (lSize > 0 && low[lows[(lHead + lSize - 1) % (exit + 1)]!]! >= low[t]!) lSize--;
      lows[(lHead + lSize) % (exit + 1)] = t;
      lSize++;
    }
    return equity[n - 1]!;
  },
};

/** The costs of the bench's second figure: 5 bp slippage within the bar, $0.005 a share with a $1 minimum. */
export const BENCH_COSTS = { slippage_bps: 5, commission_per_share: 0.005, commission_min: 1 } as const;

/**
 * sma_crossover with BENCH_COSTS, written out as one would for speed alone: the buy at min(high, open × (1 + bps)),
 * the sale at max(low, open × (1 − bps)), the commission max(min, per share × q), the most shares whose price and
 * commission fit the cash, the sale at the end at the last close slipped down. Returns the final equity.
 */
export const referenceSmaWithCosts: ReferenceLoop = ({ open, high, low, close }, p, capital) => {
  const fast = p.fast_period!;
  const slow = p.slow_period!;
  const up = 1 + BENCH_COSTS.slippage_bps / 10_000;
  const down = 1 - BENCH_COSTS.slippage_bps / 10_000;
  const perShare = BENCH_COSTS.commission_per_share;
  const minimum = BENCH_COSTS.commission_min;
  const n = close.length;
  const equity = new Float64Array(n);
  let cash = capital;
  let shares = 0;
  let pending = 0;
  let fastSum = 0;
  let slowSum = 0;
  let fastBefore = NaN;
  let slowBefore = NaN;
  for (let t = 0; t < n; t++) {
    if (pending & 1 && shares === 0) {
      const price = Math.min(high[t]!, open[t]! * up);
      let q = Math.floor(cash / (price + perShare));
      while (q > 0 && q * price + Math.max(minimum, perShare * q) > cash) q--;
      if (q > 0) {
        shares = q;
        cash -= q * price + Math.max(minimum, perShare * q);
      }
    } else if (pending & 2 && shares > 0) {
      const price = Math.max(low[t]!, open[t]! * down);
      cash += shares * price - Math.max(minimum, perShare * shares);
      shares = 0;
    }
    pending = 0;
    equity[t] = cash + shares * close[t]!;
    const x = close[t]!;
    fastSum += x - (t >= fast ? close[t - fast]! : 0);
    slowSum += x - (t >= slow ? close[t - slow]! : 0);
    const fastNow = t >= fast - 1 ? fastSum / fast : NaN;
    const slowNow = t >= slow - 1 ? slowSum / slow : NaN;
    if (fastBefore <= slowBefore && fastNow > slowNow) pending = 1;
    else if (fastBefore >= slowBefore && fastNow < slowNow) pending = 2;
    fastBefore = fastNow;
    slowBefore = slowNow;
  }
  if (shares > 0) equity[n - 1] = cash + shares * Math.max(low[n - 1]!, close[n - 1]! * down) - Math.max(minimum, perShare * shares);
  return equity[n - 1]!;
};
