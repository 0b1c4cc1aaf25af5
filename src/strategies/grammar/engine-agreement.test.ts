/**
 * A rule that says what a built-in template says gives exactly the template's signals (src/backtest/engine/rules.ts):
 * same indicators, same crossover definition, same warm-up. On the real SPX series (5,105 bars) and random walks.
 */
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
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
  // The template's exit uses the bands' own (Welford) middle, which the grammar does not expose: entry only.
  ['bollinger_reversion', { period: 20, std_dev: 2 }, 'crosses_below(close, bbands_lower(close, 20, 2))', null],
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
