/**
 * Valid rules on a 10-bar hand-written series, each with its 0/1 vector worked out by hand (arithmetic in the
 * comments). Indicator values: sma/ema/rsi/… as docs/backtesting.md defines them.
 */
import { describe, expect, it, vi } from 'vitest';
import type { BarSeries } from '../../engine/types.js';
import { FUNCTION_BY_NAME } from './functions.js';
import { compileRule, evaluateRules } from './index.js';
import { firstBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';

//                   bar: 0    1    2    3    4    5    6    7    8    9
const close = /*     */ [1, 2, 3, 2, 1, 2, 3, 4, 3, 5];
const open = /*      */ [1, 1, 2, 3, 2, 1, 2, 3, 4, 3];
const volume = /*    */ [100, 200, 100, 0, 100, 200, 300, 100, 100, 100]; // a 0 for division by zero
const BARS: BarSeries = {
  dates: close.map((_, i) => `2024-01-${String(i + 1).padStart(2, '0')}`),
  open: Float64Array.from(open),
  high: Float64Array.from(close, (c) => c + 1), // 2 3 4 3 2 3 4 5 4 6
  low: Float64Array.from(close, (c) => c - 1), //  0 1 2 1 0 1 2 3 2 4
  close: Float64Array.from(close),
  volume: Float64Array.from(volume),
};

// prettier-ignore
const CASES: readonly (readonly [rule: string, expected: string, why: string])[] = [
  // Comparisons (close: 1 2 3 2 1 2 3 4 3 5)
  ['close > 2',  '0010001111', ''],
  ['close >= 2', '0111011111', ''],
  ['close < 2',  '1000100000', ''],
  ['close <= 2', '1101110000', ''],
  ['close == 2', '0101010000', ''],
  ['close != 2', '1010101111', ''],
  ['close > open', '0110011101', 'close − open: 0 1 1 −1 −1 1 1 1 −1 2'],
  ['close > 1e0', '0111011111', 'exponent literal'],
  ['close > .5 * 4', '0010001111', '= close > 2'],
  ['close >= 2.', '0111011111', '"2." is 2'],
  ['close > 20E-1', '0010001111', 'an exponent with a sign and a capital E'],
  ['1 < 2', '1111111111', 'a constant condition holds on every bar'],
  ['2 < 1', '0000000000', ''],
  // Precedence: or < and < not < comparison < additive < multiplicative < unary
  ['close > 2 or close < 2 and close > open', '0010001111', 'or(close>2, and(close<2 [bars 0,4], close>open [not 0,4])) = close > 2'],
  ['(close > 2 or close < 2) and close > open', '0010001101', '1010101111 & 0110011101'],
  ['not close > 2 and close > 1', '0101010000', 'and(not(close>2) 1101110000, close>1 0111011111)'],
  ['not (close > 2 and close > 1)', '1101110000', ''],
  ['(close - open) * 2 > 1', '0110011101', '2·(close − open): 0 2 2 −2 −2 2 2 2 −2 4'],
  ['close - open * 2 > -2', '1110011001', 'close − 2·open: −1 0 −1 −4 −3 0 −1 −2 −5 −1'],
  ['-close + 4 > 1', '1101110000', 'unary minus binds tightest: 4 − close > 1, i.e. close < 3'],
  ['- -close == close', '1111111111', 'two unary minuses'],
  // Division by zero is NaN, and every comparison with NaN is false ("!=" too); "not" negates the 0/1 result
  ['volume / volume == 1', '1110111111', 'bar 3: 0 / 0'],
  ['not (volume / volume == 1)', '0001000000', 'not is plain negation: the NaN bar becomes 1'],
  ['close / 0 != 1', '0000000000', 'NaN != 1 is false'],
  // Crossovers (DESIGN.md): crosses_above at t is a[t−1] <= b[t−1] and a[t] > b[t]; never on bar 0
  ['crosses_above(close, 2)', '0010001000', 'bars 2 and 6 come from close = 2 on the bar before: equality counts as below'],
  ['crosses_below(close, 2)', '0000100000', 'bar 4: 2 >= 2 then 1 < 2; bar 3 (3 then 2) is not below'],
  ['crosses_above(close, open)', '0100010001', 'bar 1: equal on bar 0 (1 = 1) then above'],
  ['crosses_below(close, open)', '0001000010', ''],
  ['crosses_above(2, close)', '0000100000', 'the mirror of crosses_below(close, 2), with a constant first'],
  // sma(close, 3): – – 2 7/3 2 5/3 2 3 10/3 4 (NaN on bars 0–1, so both are 0)
  ['close > sma(close, 3)', '0010011101', ''],
  ['sma(close, 3) >= 2', '0011101111', ''],
  ['not (sma(close, 3) < 0)', '1111111111', 'not of a warm-up comparison is 1'],
  // ema(close, 3), k = 0.5, seeded with close[0]: (1 1.5) 2.25 2.125 1.5625 1.78125 2.390625 3.1953125 3.09765625 4.0488…
  ['ema(close, 3) > 2.2', '0010001111', 'bar 1 (1.5) is warm-up either way; bar 2 is the first reported'],
  ['close > ema(close, 3)', '0010011101', ''],
  // rsi(close, 2), Wilder: – – 100 50 25 62.5 81.25 90.625 45.3125 81.77
  ['rsi(close, 2) < 50', '0000100010', 'bar 3 is exactly 50: not below'],
  ['rsi(close, 2) >= 50', '0011011101', ''],
  // highest(close, 3): – – 3 3 3 2 3 4 4 5; lowest(low, 2) (low 0 1 2 1 0 1 2 3 2 4): – 0 1 1 0 0 1 2 2 2
  ['close >= highest(close, 3)', '0010011101', ''],
  ['low == lowest(low, 2)', '0001100010', 'where low[t] <= low[t−1]'],
  ['highest(high, 1) == high', '1111111111', 'a window of one bar is the bar'],
  // Bollinger over 2 bars with width 0.5: mean ± |a − b|/4, so close is above the upper band iff close rose
  ['close > bbands_upper(close, 2, 0.5)', '0110011101', ''],
  ['close < bbands_lower(close, 2, 0.5)', '0001100010', ''],
  // macd(close, 1, 2) = close − ema(close, 2) (k = 2/3), defined from bar 1:
  //   – 0.333 0.444 −0.185 −0.395 0.202 0.400 0.467 −0.178 0.607
  ['macd(close, 1, 2) > 0', '0110011101', ''],
  // Its ema(·, 2) starts at the line's first value (bar 1), reported from bar 2:
  //   – – 0.407 0.012 −0.259 0.048 0.283 0.406 0.017 0.410; the line crosses above it on bars 5 and 9
  ['crosses_above(macd(close, 1, 2), ema(macd(close, 1, 2), 2))', '0000010001', ''],
  ['crosses_below(macd(close, 1, 2), ema(macd(close, 1, 2), 2))', '0001000010', 'bar 3: 0.444 > 0.407 then −0.185 < 0.012'],
  // Nested: sma(close, 2) = – 1.5 2.5 2.5 1.5 1.5 2.5 3.5 3.5 4; its sma(·, 2) = – – 2 2.5 2 1.5 2 3 3.5 3.75
  ['sma(sma(close, 2), 2) < close', '0010011101', ''],
  // A gap (bar 3's 0/0) restarts an indicator's warm-up instead of poisoning the rest: sma = – 1 1 – – 1 1 1 1 1
  ['sma(volume / volume, 2) == 1', '0110011111', ''],
];

describe('valid rules on a hand-written series', () => {
  it.each(CASES)('%s → %s', (rule, expected) => {
    expect(bits(compileRule(rule).evaluate(BARS))).toBe(expected);
  });
});

describe('evaluation', () => {
  it('returns a Uint8Array as long as the bars, also for no bars', () => {
    const rule = compileRule('crosses_above(sma(close, 2), sma(close, 3))');
    const out = rule.evaluate(BARS);
    expect(out).toBeInstanceOf(Uint8Array);
    expect(out.length).toBe(10);
    expect(rule.evaluate(firstBars(BARS, 0)).length).toBe(0);
    expect(bits(rule.evaluate(firstBars(BARS, 1)))).toBe('0');
  });

  it('keeps the source, never writes into the bars, and gives the same array for the same bars', () => {
    const source = 'rsi(close, 2) < 50 or close / volume > high - low and not crosses_below(close, open)';
    const rule = compileRule(source);
    expect(rule.source).toBe(source);
    const before = JSON.stringify(Object.values(BARS).map((column) => Array.from(column as ArrayLike<unknown>)));
    const first = rule.evaluate(BARS);
    const second = rule.evaluate(BARS);
    expect(Array.from(second)).toEqual(Array.from(first));
    expect(second).not.toBe(first);
    expect(JSON.stringify(Object.values(BARS).map((column) => Array.from(column as ArrayLike<unknown>)))).toBe(before);
  });

  it('computes an identical subexpression once per evaluation', () => {
    const sma = FUNCTION_BY_NAME.get('sma')!;
    const spy = vi.spyOn(sma, 'compute');
    try {
      const rule = compileRule('sma(close, 3) > 2 and sma( close,3 ) < 4 or crosses_above(close, sma(close, 3.0))');
      // (0001000111 & 0011111110) | crosses_above(close, sma) 0000010001
      expect(bits(rule.evaluate(BARS))).toBe('0001010111');
      expect(spy).toHaveBeenCalledTimes(1);
      rule.evaluate(BARS);
      expect(spy).toHaveBeenCalledTimes(2); // a cache per evaluation, not across bars
    } finally {
      spy.mockRestore();
    }
  });

  it('allows newlines and tabs between tokens', () => {
    expect(bits(compileRule('close > 2\n\tand close < 4').evaluate(BARS))).toBe('0010001010');
  });
});

function bits(values: Uint8Array): string {
  return Array.from(values).join('');
}


describe('evaluateRules', () => {
  it('gives each rule what its own evaluate gives, computing the averages both rules name once', () => {
    const bars = randomWalkBars(500, 7);
    const entry = compileRule('crosses_above(sma(close, 10), sma(close, 30))');
    const exit = compileRule('crosses_below(sma(close, 10), sma(close, 30)) or close < lowest(low, 20)');
    const separately = [entry.evaluate(bars), null, exit.evaluate(bars)];
    const spy = vi.spyOn(FUNCTION_BY_NAME.get('sma')!, 'compute');
    try {
      expect(evaluateRules(bars, [entry, null, exit])).toEqual(separately);
      expect(spy).toHaveBeenCalledTimes(2); // sma(close, 10) and sma(close, 30), once each for both rules
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a rule that compileRule did not make', () => {
    const forged = { source: 'close > 1', evaluate: () => new Uint8Array(0) };
    expect(() => evaluateRules(randomWalkBars(5, 1), [forged])).toThrow(TypeError);
  });
});

describe('numbers past the largest double', () => {
  it('an indicator that overflows gives no value, like arithmetic does, so no comparison holds there', () => {
    const huge = Float64Array.from([1e308, 1.5e308, 1.7e308, 1e308]);
    const bars: BarSeries = { dates: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'], open: huge, high: huge, low: huge, close: huge, volume: huge };
    // The sum inside sma(close, 2) overflows on every bar after the first: Infinity, which would compare above anything.
    expect(Array.from(compileRule('sma(close, 2) > 1e308').evaluate(bars))).toEqual([0, 0, 0, 0]);
    expect(Array.from(compileRule('close * 10 > 1e308').evaluate(bars))).toEqual([0, 0, 0, 0]);
  });
});
