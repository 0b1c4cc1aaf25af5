/**
 * runSweep: the best cell by the objective, the split's out-of-sample run and the walk-forward windows and their
 * stitched curve, each checked against single backtests and against index ranges written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
import { EngineError } from '../engine-error.js';
import { findTemplate, runTemplateBacktest } from '../index.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import { bestCellIndex, type CellMetrics } from './cell-metrics.js';
import { planSweep } from './grid.js';
import { runSweep, type RunCells } from './run-sweep.js';
import { sweepCells } from './sweep-cells.js';
import { sliceBars, walkForwardWindows } from './validation.js';
import { NO_COSTS, NO_EXITS } from '../execution/settings.js';

const sma = findTemplate('sma_crossover')!;
const spx = loadSpxBars();
const runCells: RunCells = async (bars, cells) => sweepCells(bars, sma, cells, 10_000);

function cell(values: Partial<CellMetrics>): CellMetrics {
  return { total_return: 0, annualized_return: null, sharpe_ratio: null, max_drawdown: 0, win_rate: null, profit_factor: null, total_trades: 0, ...values };
}

function seven(params: ResolvedParameters, bars: BarSeries, capital: number, template = sma): CellMetrics {
  const m = runTemplateBacktest(bars, template, params, capital).metrics;
  const { total_return, annualized_return, sharpe_ratio, max_drawdown, win_rate, profit_factor, total_trades } = m;
  return { total_return, annualized_return, sharpe_ratio, max_drawdown, win_rate, profit_factor, total_trades };
}

describe('bestCellIndex', () => {
  it('takes the highest value; null ranks below every number, even a negative one', () => {
    const metrics = [cell({ sharpe_ratio: null }), cell({ sharpe_ratio: -3 }), cell({ sharpe_ratio: 0.5 }), cell({ sharpe_ratio: null })];
    expect(bestCellIndex(metrics, 'sharpe_ratio')).toBe(2);
    expect(bestCellIndex([cell({ win_rate: null }), cell({ win_rate: -0 })], 'win_rate')).toBe(1);
  });

  it('breaks ties by the lowest index (the earliest cell in the parameter order)', () => {
    const metrics = [cell({ total_return: 0.1 }), cell({ total_return: 0.4 }), cell({ total_return: 0.4 }), cell({ total_return: 0.2 })];
    expect(bestCellIndex(metrics, 'total_return')).toBe(1);
    expect(bestCellIndex([cell({}), cell({})], 'profit_factor')).toBe(0); // all null: the first
  });

  it('takes the shallowest max_drawdown (the highest of values ≤ 0)', () => {
    expect(bestCellIndex([cell({ max_drawdown: -0.5 }), cell({ max_drawdown: -0.1 }), cell({ max_drawdown: -0.3 })], 'max_drawdown')).toBe(1);
  });

  it('ranks a thin cell (fewer trades than the minimum) below every cell with enough, whatever its objective', () => {
    const metrics = [cell({ sharpe_ratio: 0.4, total_trades: 12 }), cell({ sharpe_ratio: 3.1, total_trades: 2 }), cell({ sharpe_ratio: null, total_trades: 10 }), cell({ sharpe_ratio: 0.9, total_trades: 10 })];
    expect(bestCellIndex(metrics, 'sharpe_ratio')).toBe(1);
    expect(bestCellIndex(metrics, 'sharpe_ratio', 10)).toBe(3);
    // Every cell thin: the best of them, by the usual rule.
    expect(bestCellIndex(metrics, 'sharpe_ratio', 50)).toBe(1);
  });
});

describe('runSweep without validation', () => {
  it('answers every cell over all the bars and the best one', async () => {
    const plan = planSweep(sma, { fast_period: [5, 10, 20], slow_period: [50, 100] });
    const outcome = await runSweep({ bars: spx, template: sma, plan, initialCapital: 10_000, objective: 'total_return' }, runCells);
    expect(outcome.metrics).toEqual(sweepCells(spx, sma, plan.cells, 10_000));
    const returns = outcome.metrics.map((m) => m.total_return);
    expect(outcome.best).toBe(returns.indexOf(Math.max(...returns)));
    expect(outcome.validation).toBeUndefined();
  });

  it('with a minimum of trades, never answers a thin cell as best while another has enough', async () => {
    const plan = planSweep(sma, { fast_period: [2, 5, 10, 20, 40], slow_period: [50, 100, 200] });
    const open = await runSweep({ bars: spx, template: sma, plan, initialCapital: 10_000, objective: 'sharpe_ratio' }, runCells);
    const topTrades = open.metrics[open.best]!.total_trades;
    expect(Math.max(...open.metrics.map((m) => m.total_trades))).toBeGreaterThan(topTrades);
    const filtered = await runSweep({ bars: spx, template: sma, plan, initialCapital: 10_000, objective: 'sharpe_ratio', minTrades: topTrades + 1 }, runCells);
    expect(filtered.best).not.toBe(open.best);
    expect(filtered.metrics[filtered.best]!.total_trades).toBeGreaterThan(topTrades);
    expect(filtered.best).toBe(bestCellIndex(open.metrics, 'sharpe_ratio', topTrades + 1));
  });
});

describe('runSweep with a split', () => {
  const plan = planSweep(sma, { fast_period: { min: 5, max: 50, step: 15 }, slow_period: [60, 120, 200] });

  it.each([
    { validation: { split_date: '2015-01-01' }, splitIndex: spx.dates.indexOf('2015-01-02') },
    { validation: { in_sample_fraction: 0.7 }, splitIndex: Math.floor(spx.dates.length * 0.7) },
  ])('$validation: cells over the in-sample bars, the best run alone over the held-out bars', async ({ validation, splitIndex }) => {
    const outcome = await runSweep({ bars: spx, template: sma, plan, initialCapital: 10_000, objective: 'sharpe_ratio', validation }, runCells);
    expect(outcome.validation).toMatchObject({ kind: 'split', splitIndex });
    const inSample = sliceBars(spx, 0, splitIndex);
    expect(outcome.metrics).toEqual(plan.cells.map((params) => seven(params, inSample, 10_000)));
    expect(outcome.best).toBe(bestCellIndex(outcome.metrics, 'sharpe_ratio'));
    const heldOut = spx.dates.slice(splitIndex);
    expect(heldOut[0]! >= '2012-01-01').toBe(true);
    const single = seven(plan.cells[outcome.best]!, sliceBars(spx, splitIndex, spx.dates.length), 10_000);
    const outOfSample = outcome.validation!.kind === 'split' ? outcome.validation!.outOfSample : undefined;
    for (const [name, value] of Object.entries(single)) expect(Object.is(outOfSample![name as keyof CellMetrics], value), name).toBe(true);
  });

  it.each([
    [{ split_date: '2000-01-04' }, /1 in-sample and 5104 out-of-sample/], // only 2000-01-03 before it
    [{ split_date: '2020-04-17' }, /5104 in-sample and 1 out-of-sample/],
    [{ split_date: '2030-01-01' }, /5105 in-sample and 0 out-of-sample/],
    [{ in_sample_fraction: 0.0001 }, /0 in-sample/],
  ])('refuses %o, which leaves a side with fewer than 2 bars (invalid_validation)', async (validation, message) => {
    const sweep = runSweep({ bars: spx, template: sma, plan, initialCapital: 10_000, objective: 'total_return', validation }, runCells);
    await expect(sweep).rejects.toThrow(EngineError);
    await expect(sweep).rejects.toMatchObject({ code: 'invalid_validation', message: expect.stringMatching(message) });
  });
});

describe('walk-forward windows', () => {
  it('23 bars, 3 windows, in-sample fraction 0.6: L = 5, I = 7, the first bar dropped', () => {
    // L = floor(23 / (3 + 0.6/0.4)) = floor(5.11) = 5; I = floor(5 · 1.5) = 7; r = 23 − (3·5 + 7) = 1.
    expect(walkForwardWindows(23, 3, 0.6)).toEqual([
      { inSample: { start: 1, end: 8 }, outOfSample: { start: 8, end: 13 } },
      { inSample: { start: 6, end: 13 }, outOfSample: { start: 13, end: 18 } },
      { inSample: { start: 11, end: 18 }, outOfSample: { start: 18, end: 23 } },
    ]);
  });

  it('100 bars, 4 windows, 0.75: L = 14, I = 42, two bars dropped', () => {
    expect(walkForwardWindows(100, 4, 0.75).map((w) => [w.inSample.start, w.inSample.end, w.outOfSample.start, w.outOfSample.end])).toEqual([
      [2, 44, 44, 58],
      [16, 58, 58, 72],
      [30, 72, 72, 86],
      [44, 86, 86, 100],
    ]);
  });

  it('allows the shortest windows: 2 bars in sample and 2 out of sample (10 bars, 4 windows, 0.5)', () => {
    expect(walkForwardWindows(10, 4, 0.5).map((w) => [w.inSample.start, w.outOfSample.start, w.outOfSample.end])).toEqual([
      [0, 2, 4],
      [2, 4, 6],
      [4, 6, 8],
      [6, 8, 10],
    ]);
  });

  it.each([
    [9, 4, 0.5, /9 bars in 4 windows give 1 in-sample and 1 out-of-sample bars per window; each needs at least 2/],
    [100, 1, 0.5, /windows must be an integer from 2 to 50; got 1/],
    [100, 51, 0.5, /from 2 to 50; got 51/],
    [100, 2.5, 0.5, /from 2 to 50; got 2.5/],
    [100, 3, 1, /between 0 and 1 \(exclusive\); got 1/],
    [100, 3, 0, /between 0 and 1 \(exclusive\); got 0/],
  ])('refuses %i bars in %s windows at fraction %s (invalid_validation)', (n, windows, f, message) => {
    expect(() => walkForwardWindows(n, windows, f)).toThrow(message);
    expect(() => walkForwardWindows(n, windows, f)).toThrow(EngineError);
  });
});

describe('runSweep with walk-forward', () => {
  // Donchian channels of 2 or 3 bars trade inside 5-bar windows.
  const donchian = findTemplate('donchian_breakout')!;
  const bars = randomWalkBars(23, 3);
  const plan = planSweep(donchian, { entry_period: [2, 3], exit_period: [2, 3] });
  const sweep = () =>
    runSweep(
      { bars, template: donchian, plan, initialCapital: 1_000, objective: 'total_return', validation: { walk_forward: { windows: 3, in_sample_fraction: 0.6 } } },
      async (b, cells) => sweepCells(b, donchian, cells, 1_000),
    );

  it('optimizes each in-sample window and chains the out-of-sample runs capital to capital', async () => {
    const outcome = await sweep();
    expect(outcome.metrics).toEqual(sweepCells(bars, donchian, plan.cells, 1_000)); // cells over the whole period
    const validation = outcome.validation!;
    if (validation.kind !== 'walk_forward') throw new Error('expected walk_forward');
    const ranges = [
      [1, 8, 8, 13],
      [6, 13, 13, 18],
      [11, 18, 18, 23],
    ];
    let capital = 1_000;
    const curves: number[] = [];
    let trades = 0;
    validation.windows.forEach((window, k) => {
      const [isStart, isEnd, oosStart, oosEnd] = ranges[k]!;
      expect(window.inSample).toEqual({ start: isStart, end: isEnd });
      expect(window.outOfSample).toEqual({ start: oosStart, end: oosEnd });
      const inSample = sweepCells(sliceBars(bars, isStart!, isEnd!), donchian, plan.cells, 1_000);
      expect(window.params).toBe(plan.cells[bestCellIndex(inSample, 'total_return')]);
      expect(window.inSampleMetrics).toEqual(inSample[bestCellIndex(inSample, 'total_return')]);
      // The window's out-of-sample run starts with the previous window's final equity.
      const run = runTemplateBacktest(sliceBars(bars, oosStart!, oosEnd!), donchian, window.params, capital);
      expect(run.equity[0]).toBe(capital);
      expect(window.outOfSampleMetrics).toEqual(seven(window.params, sliceBars(bars, oosStart!, oosEnd!), capital, donchian));
      curves.push(...run.equity);
      trades += run.metrics.total_trades;
      capital = run.metrics.final_capital;
    });
    expect(validation.dates).toEqual(bars.dates.slice(8, 23));
    expect([...validation.equity]).toEqual(curves);
    expect(validation.metrics.total_return).toBe(capital / 1_000 - 1);
    expect(validation.metrics.total_trades).toBe(trades);
    let peak = -Infinity;
    let lowest = 0;
    for (const value of curves) {
      peak = Math.max(peak, value);
      lowest = Math.min(lowest, value / peak - 1);
    }
    expect(validation.metrics.max_drawdown).toBe(lowest);
    expect(trades).toBeGreaterThan(0); // the chain is tested with positions, not only with flat cash
    expect(capital).not.toBe(1_000);
  });

  it('gives identical results when run twice', async () => {
    const [a, b] = [await sweep(), await sweep()];
    expect(a).toEqual(b);
    expect(JSON.stringify(a, (_, v) => (v instanceof Float64Array ? [...v] : v))).toBe(JSON.stringify(b, (_, v) => (v instanceof Float64Array ? [...v] : v)));
  });

  it('refuses windows too short for the bars (invalid_validation)', async () => {
    // 23 bars in 11 windows: L = floor(23 / 12) = 1 bar out of sample.
    const tooMany = runSweep(
      { bars, template: donchian, plan, initialCapital: 1_000, objective: 'total_return', validation: { walk_forward: { windows: 11, in_sample_fraction: 0.5 } } },
      async (b, cells) => sweepCells(b, donchian, cells, 1_000),
    );
    await expect(tooMany).rejects.toMatchObject({ code: 'invalid_validation' });
  });
});

describe('a walk-forward that exhausts its capital', () => {
  it('refuses the window after one whose out-of-sample run ends at or below 0 (capital_exhausted), not a RangeError', async () => {
    // A $1,500 minimum an order on 3,000: one SPX share and its two commissions cost more than the capital.
    const execution = { costs: { ...NO_COSTS, commission_min: 1500 }, sizing: { mode: 'all_in' as const }, exits: NO_EXITS };
    const bars = sliceBars(spx, spx.dates.indexOf('2010-01-04'), spx.dates.indexOf('2014-12-31') + 1);
    const plan = planSweep(sma, { fast_period: [5, 10], slow_period: [20] });
    const sweep = runSweep(
      { bars, template: sma, plan, initialCapital: 3000, objective: 'total_return', minTrades: 0, execution, validation: { walk_forward: { windows: 4, in_sample_fraction: 0.5 } } },
      async (cellBars, cells) => sweepCells(cellBars, sma, cells, 3000, execution),
    );
    await expect(sweep).rejects.toBeInstanceOf(EngineError);
    await expect(sweep).rejects.toMatchObject({ code: 'capital_exhausted', details: [{ field: 'body.validation.walk_forward' }] });
  });
});
