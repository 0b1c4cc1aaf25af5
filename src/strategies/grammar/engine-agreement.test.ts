/**
 * A rule that says what a built-in template says gives exactly the template's signals (src/backtest/engine/rules.ts):
 * same indicators, same crossover definition, same warm-up. On the real SPX series (5,105 bars) and random walks.
 */
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
import { tiedMeansSeries } from '../../../test/fixtures/exact-sums.js';
import { ENTER, EXIT, TEMPLATE_SIGNALS } from '../../engine/signals.js';
import type { BarSeries, ResolvedParameters } from '../../engine/types.js';
import { compileRule } from './index.js';

const SERIES: readonly (readonly [string, BarSeries])[] = [
  ['SPX', loadSpxBars()],
  ['random walk 1', randomWalkBars(3000, 1)],
  ['random walk 7', randomWalkBars(3000, 7)],
];

// prettier-ignore
const TEMPLATES: readonly (readonly [template: string, params: ResolvedParameters, entry: string, exit: string | null])[] = [
  ['sma_crossover', { fast_period: 10, slow_period: 30 },
    'crosses_above(sma(close, 10), sma(close, 30))', 'crosses_below(sma(close, 10), sma(close, 30))'],
  ['sma_crossover', { fast_period: 2, slow_period: 5 },
    'crosses_above(sma(close, 2), sma(close, 5))', 'crosses_below(sma(close, 2), sma(close, 5))'],
  ['ema_crossover', { fast_period: 12, slow_period: 26 },
    'crosses_above(ema(close, 12), ema(close, 26))', 'crosses_below(ema(close, 12), ema(close, 26))'],
  ['macd_crossover', { fast_period: 12, slow_period: 26, signal_period: 9 },
    'crosses_above(macd(close, 12, 26), ema(macd(close, 12, 26), 9))', 'crosses_below(macd(close, 12, 26), ema(macd(close, 12, 26), 9))'],
  ['rsi_reversion', { period: 14, oversold: 30, overbought: 70 },
    'crosses_below(rsi(close, 14), 30)', 'crosses_above(rsi(close, 14), 70)'],
  // The bands' middle is the same correctly rounded mean as sma, so the exit is sma's crossing.
  ['bollinger_reversion', { period: 20, std_dev: 2 }, 'crosses_below(close, bbands_lower(close, 20, 2))',
    'crosses_above(close, sma(close, 20))'],
];

describe('rules agree with the built-in templates', () => {
  for (const [name, bars] of SERIES) {
    it.each(TEMPLATES)(`${name}: %s %o`, (template, params, entry, exit) => {
      const signals = TEMPLATE_SIGNALS[template]!(bars, params);
      const expectedEntries = Array.from(signals, (s) => (s & ENTER ? 1 : 0));
      const entries = Array.from(compileRule(entry).evaluate(bars));
      expect(entries).toEqual(expectedEntries);
      expect(entries.filter(Boolean).length).toBeGreaterThan(5); // the comparison is not vacuous
      if (exit !== null) {
        const exits = Array.from(compileRule(exit).evaluate(bars));
        expect(exits).toEqual(Array.from(signals, (s) => (s & EXIT ? 1 : 0)));
        expect(exits.filter(Boolean).length).toBeGreaterThan(5);
      }
    });
  }
});

describe('an exact tie of the averages is no crossing for the rules either (DESIGN.md "Indicator arithmetic")', () => {
  it.each([
    [200, 5, 20, 1484.6],
    [100_000, 10, 30, 1484],
  ])('%i bars, sma(%i) and sma(%i) both exactly %f cents on the tie bar', (length, fast, slow, meanCents) => {
    const { bars, tieBar } = tiedMeansSeries(length, fast, slow, meanCents, 17);
    const entry = compileRule(`crosses_above(sma(close, ${fast}), sma(close, ${slow}))`).evaluate(bars);
    const equal = compileRule(`sma(close, ${fast}) == sma(close, ${slow})`).evaluate(bars);
    expect(equal[tieBar]).toBe(1);
    expect(entry[tieBar]).toBe(0);
    expect(entry[tieBar + 1]).toBe(1);
    const signals = TEMPLATE_SIGNALS.sma_crossover!(bars, { fast_period: fast, slow_period: slow });
    expect(Array.from(entry)).toEqual(Array.from(signals, (s) => (s & ENTER ? 1 : 0)));
  });
});
