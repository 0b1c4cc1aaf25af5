/**
 * sweepCells gives every cell exactly the metrics of a single runTemplateBacktest with that cell's parameters:
 * Object.is on each of the seven, for small 1-D and 2-D sweeps of every template, on SPX and on a random walk.
 */
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
import { tiedMeansSeries } from '../../../test/fixtures/exact-sums.js';
import { findTemplate, runTemplateBacktest } from '../index.js';
import type { BarSeries, StrategyTemplate } from '../types.js';
import { cellMetricsOf, type CellMetrics } from './cell-metrics.js';
import { planSweep, type GridSpec } from './grid.js';
import { sweepCells } from './sweep-cells.js';

const METRICS: readonly (keyof CellMetrics)[] = [
  'total_return',
  'annualized_return',
  'sharpe_ratio',
  'max_drawdown',
  'win_rate',
  'profit_factor',
  'total_trades',
];

/** Small grids of every template, one and two parameters. */
const SWEEPS: readonly { id: string; grid: GridSpec }[] = [
  { id: 'sma_crossover', grid: { fast_period: { min: 2, max: 30, step: 7 } } },
  { id: 'sma_crossover', grid: { fast_period: [5, 10, 20, 50], slow_period: { min: 20, max: 200, step: 45 } } },
  { id: 'ema_crossover', grid: { slow_period: [15, 26, 60, 200] } },
  { id: 'ema_crossover', grid: { fast_period: { min: 2, max: 42, step: 10 }, slow_period: [20, 26, 100] } },
  { id: 'macd_crossover', grid: { signal_period: [2, 9, 30] } },
  { id: 'macd_crossover', grid: { fast_period: [5, 12], slow_period: [10, 26, 60] } },
  { id: 'rsi_reversion', grid: { period: [2, 14, 40] } },
  { id: 'rsi_reversion', grid: { oversold: { min: 20, max: 40, step: 10 }, overbought: [50, 65.5, 80] } },
  { id: 'bollinger_reversion', grid: { std_dev: { min: 0.5, max: 3, step: 0.5 } } },
  { id: 'bollinger_reversion', grid: { period: [5, 20, 60], std_dev: [1, 2.5] } },
  { id: 'donchian_breakout', grid: { entry_period: [2, 20, 55] } },
  { id: 'donchian_breakout', grid: { entry_period: [10, 20], exit_period: [2, 10, 30] } },
];

const SERIES: readonly { name: string; bars: BarSeries }[] = [
  { name: 'SPX', bars: loadSpxBars() },
  { name: 'a random walk', bars: randomWalkBars(1500, 7) },
];

function template(id: string): StrategyTemplate {
  return findTemplate(id)!;
}

describe.each(SERIES)('every cell equals its single backtest on $name', ({ bars }) => {
  it.each(SWEEPS)('$id over $grid', ({ id, grid }) => {
    const plan = planSweep(template(id), grid);
    const metrics = sweepCells(bars, template(id), plan.cells, 10_000);
    expect(metrics).toHaveLength(plan.cells.length);
    plan.cells.forEach((params, i) => {
      const single = runTemplateBacktest(bars, template(id), params, 10_000).metrics;
      for (const name of METRICS) expect(Object.is(metrics[i]![name], single[name]), `cell ${i} ${name}`).toBe(true);
    });
  });

  it('buy_and_hold has no parameters to sweep, but its cell (the defaults) runs', () => {
    const metrics = sweepCells(bars, template('buy_and_hold'), [{}], 5_000);
    expect(metrics[0]!.total_return).toBe(runTemplateBacktest(bars, template('buy_and_hold'), {}, 5_000).metrics.total_return);
  });
});

describe('the shared indicator series keep the engine\'s exact ties', () => {
  it('an exact tie of the 5- and 20-bar means is no crossover in a sweep either', () => {
    const { bars } = tiedMeansSeries(400, 5, 20, 1484.6, 17);
    const sma = template('sma_crossover');
    const plan = planSweep(sma, { fast_period: [3, 5, 8], slow_period: [20, 21] });
    const metrics = sweepCells(bars, sma, plan.cells, 10_000);
    plan.cells.forEach((params, i) => {
      const single = runTemplateBacktest(bars, sma, params, 10_000).metrics;
      for (const name of METRICS) expect(Object.is(metrics[i]![name], single[name]), `cell ${i} ${name}`).toBe(true);
    });
  });

  it('cells too short to trade (slow period ≥ bars) take the single backtest\'s path and agree with it', () => {
    const bars = randomWalkBars(40, 2);
    const ema = template('ema_crossover');
    const plan = planSweep(ema, { slow_period: [10, 39, 40, 60] });
    const metrics = sweepCells(bars, ema, plan.cells, 10_000);
    plan.cells.forEach((params, i) => expect(metrics[i]).toEqual(cellMetricsOf(runTemplateBacktest(bars, ema, params, 10_000).metrics)));
  });

  it('refuses a capital that is not a positive number, as runTemplateBacktest does', () => {
    expect(() => sweepCells(randomWalkBars(40, 2), template('sma_crossover'), [{ fast_period: 2, slow_period: 5 }], 0)).toThrow(RangeError);
  });
});
