import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectFiniteNumbers } from '../../test/fixtures/assertions.js';
import { firstBars, loadSpxBars } from '../../test/fixtures/bar-series.js';
import { STRATEGY_TEMPLATES, defaultParameters, findTemplate, resolveTemplateParameters, runTemplateBacktest } from './index.js';
import type { BarSeries } from './types.js';

const spx = loadSpxBars();


describe('programming errors are refused, not computed', () => {
  const sma = findTemplate('sma_crossover')!;
  it.each<[string, () => unknown]>([
    ['no bars', () => runTemplateBacktest(firstBars(spx, 0), sma, defaultParameters(sma), 1000)],
    ['a capital of 0', () => runTemplateBacktest(spx, sma, defaultParameters(sma), 0)],
    ['unresolved parameters', () => runTemplateBacktest(spx, sma, {}, 1000)],
    ['a template without rules', () => runTemplateBacktest(spx, { ...sma, id: 'nope' }, {}, 1000)],
  ])('%s', (_case, run) => {
    expect(run).toThrow(RangeError);
  });
});

/** Random bars: small integer prices so that ties and crossings are frequent. */
const barsArbitrary = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 5 })), {
    minLength: 1,
    maxLength: 90,
  })
  .map((rows): BarSeries => {
    let day = Date.UTC(2020, 0, 1);
    return {
      // Ascending dates with gaps of 1 to 3 days, like weekends and holidays.
      dates: rows.map((row) => new Date((day += 86_400_000 * (1 + (row[2] % 3)))).toISOString().slice(0, 10)),
      open: Float64Array.from(rows, (r) => r[0]),
      close: Float64Array.from(rows, (r) => r[1]),
      high: Float64Array.from(rows, (r) => Math.max(r[0], r[1]) + r[2]),
      low: Float64Array.from(rows, (r) => Math.max(0.5, Math.min(r[0], r[1]) - r[2])),
      volume: new Float64Array(rows.length),
    };
  });

/** A template with parameters drawn near the bottom of their ranges (so short series still trade). */
const setupArbitrary = fc.constantFrom(...STRATEGY_TEMPLATES).chain((template) =>
  fc
    .tuple(
      ...template.parameters.map((p) =>
        p.type === 'integer'
          ? fc.integer({ min: p.min, max: Math.min(p.max, p.min + 12) })
          : fc.integer({ min: Math.ceil(p.min * 2), max: Math.floor(Math.min(p.max, p.min + 12) * 2) }).map((v) => v / 2),
      ),
    )
    .map((values) => ({ template, supplied: template.parameters.map((p, i) => ({ name: p.name, value: values[i]! })) })),
);

describe('properties of every run (fast-check on random bars and parameters)', () => {
  it('accounting holds, trades alternate BUY/SELL, drawdowns ≤ 0, and nothing looks ahead', () => {
    fc.assert(
      fc.property(barsArbitrary, setupArbitrary, fc.integer({ min: 1, max: 5000 }), fc.nat(), (bars, setup, capital, cut) => {
        let params;
        try {
          params = resolveTemplateParameters(setup.template, setup.supplied);
        } catch {
          fc.pre(false);
          return;
        }
        const run = runTemplateBacktest(bars, setup.template, params, capital);
        const n = bars.dates.length;
        expect(run.equity[0]).toBe(capital);
        for (let t = 0; t < n; t++) expect(run.drawdowns[t]!).toBeLessThanOrEqual(0);
        expect(run.metrics.max_drawdown).toBe(Math.min(0, ...run.drawdowns));

        let cash = capital;
        run.trades.forEach((trade, i) => {
          expect(trade.type).toBe(i % 2 === 0 ? 'BUY' : 'SELL');
          if (trade.type === 'BUY') {
            expect(trade.shares).toBe(Math.floor(cash / trade.price));
            expect(trade.shares).toBeGreaterThanOrEqual(1);
            cash -= trade.value;
          } else {
            expect(trade.shares).toBe(run.trades[i - 1]!.shares);
            cash += trade.value;
          }
        });
        expect(run.trades.length % 2).toBe(0);
        expect(run.metrics.final_capital).toBeCloseTo(cash, 6);
        expect(run.metrics.total_trades).toBe(run.trades.length / 2);
        expect(run.metrics.winning_trades + run.metrics.losing_trades).toBeLessThanOrEqual(run.metrics.total_trades);

        // No look-ahead. The fills up to the open of bar k − 1 may depend on bars 0 … k − 2 only: a run on the first
        // k bars, with bar k − 1's close, high and low changed, makes the same fills and the same equity to k − 2.
        if (n > 1) {
          const k = 1 + (cut % (n - 1));
          const altered = firstBars(bars, k);
          const open = altered.open[k - 1]!;
          altered.close[k - 1] = open + 1 + (cut % 7);
          altered.high[k - 1] = altered.close[k - 1]! + 1;
          altered.low[k - 1] = Math.max(0.5, open - 3);
          const prefix = runTemplateBacktest(altered, setup.template, params, capital);
          expect(Array.from(prefix.equity.slice(0, k - 1))).toEqual(Array.from(run.equity.slice(0, k - 1)));
          const lastDate = `${bars.dates[k - 1]}T00:00:00.000Z`;
          const forcedSale = (t: (typeof run.trades)[number]) => t.date === lastDate && t.price !== open;
          expect(prefix.trades.filter((t) => !forcedSale(t))).toEqual(run.trades.filter((t) => t.date <= lastDate));
        }
        expectFiniteNumbers(run.metrics);
      }),
      { numRuns: 400, seed: 20261123 },
    );
  });
});
