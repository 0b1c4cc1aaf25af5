import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { colourAt, scaleOf, scalePosition } from './heat-scale';
import { labHref, labPrefill } from './lab-link';
import { DEFAULT_MARKET_INPUTS } from './market-inputs';
import { axisValues, cellCount, cellGrid, checkAxes, defaultAxis, describeCellCount, gridRequest, niceStep } from './sweep-grid';
import { checkMinTrades, checkValidation, DEFAULT_VALIDATION, sweepFormErrors, validationRequest } from './sweep-inputs';
import { noTradeNote, outOfSampleWarning, thinNote, topCells } from './sweep-objectives';
import type { SweepCell, SweepMetrics } from './sweep-types';
import type { StrategyTemplate } from './types';
import { SMA_TEMPLATE } from './template-fixtures';

const SMA = SMA_TEMPLATE;
const RSI: StrategyTemplate = {
  id: 'rsi_reversion',
  name: 'RSI Mean Reversion',
  description: '',
  parameters: [
    { name: 'period', type: 'integer', default: 14, min: 2, max: 100, description: '' },
    { name: 'oversold', type: 'number', default: 30, min: 1, max: 50, description: '' },
  ],
};

const METRICS: SweepMetrics = { total_return: 0.1, annualized_return: 0.05, sharpe_ratio: 1, max_drawdown: -0.1, win_rate: 0.5, profit_factor: 1.5, total_trades: 4 };
const cell = (params: Record<string, number>, metrics: Partial<SweepMetrics> = {}, thin = false): SweepCell => ({ ...METRICS, ...metrics, params, thin });

describe('the grid as typed', () => {
  it('expands a range as the server does: min + k·step up to max, 0.1 steps without drift', () => {
    expect(axisValues(5, 20, 5)).toEqual([5, 10, 15, 20]);
    expect(axisValues(30, 65, 10)).toEqual([30, 40, 50, 60]);
    expect(axisValues(0.1, 0.5, 0.1)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(axisValues(3, 2, 1)).toEqual([]);
    expect(axisValues(1, 2, 0)).toEqual([]);
  });

  it('counts cells as the user types: the product of the axes, before any pair is left out, 0 while incomplete', () => {
    const fast = { name: 'fast_period', min: '5', max: '20', step: '5' };
    const slow = { name: 'slow_period', min: '30', max: '60', step: '10' };
    expect(cellCount([fast, slow])).toBe(16);
    expect(describeCellCount([fast, slow])).toBe('4 × 4 = 16 cells');
    expect(describeCellCount([fast])).toBe('4 cells');
    expect(cellCount([{ ...fast, step: '' }, slow])).toBe(0);
  });

  it('refuses more than 10,000 cells before sending, and ranges outside the parameter or not whole', () => {
    const wide = [
      { name: 'fast_period', min: '2', max: '100', step: '1' },
      { name: 'slow_period', min: '5', max: '400', step: '1' },
    ];
    expect(cellCount(wide)).toBe(99 * 396);
    expect(checkAxes(SMA, wide)).toEqual({ grid: 'The grid has 39,204 cells; at most 10,000. Widen a step or narrow a range.' });
    expect(checkAxes(SMA, [{ name: 'fast_period', min: '2', max: '100', step: '1' }, { name: 'slow_period', min: '300', max: '400', step: '1' }])).toEqual({});
    expect(checkAxes(SMA, [{ name: 'fast_period', min: '1', max: '20.5', step: '0' }])).toEqual({
      'grid.fast_period.min': 'Enter a whole number from 2 to 100.',
      'grid.fast_period.max': 'Enter a whole number from 2 to 100.',
      'grid.fast_period.step': 'Enter a whole step of 1 or more.',
    });
    expect(checkAxes(SMA, [{ name: 'fast_period', min: '20', max: '10', step: '1' }])).toEqual({ 'grid.fast_period.max': 'The maximum must be at least the minimum (20).' });
    expect(gridRequest([{ name: 'fast_period', min: '5', max: '20', step: '5' }])).toEqual({ fast_period: { min: 5, max: 20, step: 5 } });
  });

  it('says a count past 2^53 in words, as the server does, instead of hundreds of digits', () => {
    const tiny = [{ name: 'oversold', min: '1', max: '50', step: '1e-300' }];
    expect(describeCellCount(tiny)).toBe('more than 9,007,199,254,740,991 cells');
    expect(checkAxes(RSI, tiny)).toEqual({ grid: 'The grid has more than 9,007,199,254,740,991 cells; at most 10,000. Widen a step or narrow a range.' });
  });

  it('chooses nice steps: 1, 2, 2.5 or 5 times a power of ten, whole for whole-number parameters', () => {
    expect([0.04, 0.1, 0.11, 0.45, 1, 1.2, 2.1, 3, 4.3, 9.8, 10.9, 39.5, 43, 120].map((least) => niceStep(least, false))).toEqual([
      0.05, 0.1, 0.2, 0.5, 1, 2, 2.5, 5, 5, 10, 20, 50, 50, 200,
    ]);
    expect([0.3, 1, 2.1, 3, 10.9, 21, 39.5].map((least) => niceStep(least, true))).toEqual([1, 1, 5, 5, 20, 25, 50]);
  });

  it('starts each parameter at up to ten multiples of a nice step across its bounds', () => {
    expect(defaultAxis(SMA.parameters[0]!)).toEqual({ name: 'fast_period', min: '10', max: '100', step: '10' });
    expect(defaultAxis(SMA.parameters[1]!)).toEqual({ name: 'slow_period', min: '50', max: '400', step: '50' });
    expect(defaultAxis(RSI.parameters[1]!)).toEqual({ name: 'oversold', min: '5', max: '50', step: '5' });
    const stdDev = { name: 'std_dev', type: 'number' as const, default: 2, min: 0.5, max: 5, description: '' };
    expect(defaultAxis(stdDev)).toEqual({ name: 'std_dev', min: '0.5', max: '5', step: '0.5' });
    const donchian = { name: 'entry_period', type: 'integer' as const, default: 20, min: 2, max: 400, description: '' };
    expect(axisValues(50, 400, 50)).toEqual([50, 100, 150, 200, 250, 300, 350, 400]);
    expect(defaultAxis(donchian)).toEqual({ name: 'entry_period', min: '50', max: '400', step: '50' });
    for (const parameter of [...SMA.parameters, ...RSI.parameters, stdDev, donchian]) {
      const axis = defaultAxis(parameter);
      const count = cellCount([axis]);
      expect(count).toBeGreaterThanOrEqual(5);
      expect(count).toBeLessThanOrEqual(10);
      expect(checkAxes({ ...SMA, parameters: [parameter] }, [axis])).toEqual({});
    }
  });
});

describe('the heat map', () => {
  it('lays cells out by row (first parameter) and column (last), leaving the server’s left-out pairs empty', () => {
    const cells = [cell({ fast_period: 5, slow_period: 10 }), cell({ fast_period: 5, slow_period: 20 }), cell({ fast_period: 15, slow_period: 20 })];
    const sent = [
      { name: 'fast_period', values: [5, 15] },
      { name: 'slow_period', values: [10, 20] },
    ];
    const { rows, columns, grid } = cellGrid(['fast_period', 'slow_period'], cells, sent);
    expect(rows?.values).toEqual([5, 15]);
    expect(columns.values).toEqual([10, 20]);
    expect(grid).toEqual([
      [0, 1],
      [undefined, 2],
    ]);
    const single = cellGrid(['fast_period'], [cell({ fast_period: 5 }), cell({ fast_period: 10 })], [{ name: 'fast_period', values: [5, 10] }]);
    expect(single.rows).toBeUndefined();
    expect(single.grid).toEqual([[0, 1]]);
  });

  it('colours from dark purple (lowest) to yellow (highest), the middle when every value is the same', () => {
    const scale = scaleOf([0.5, null, -0.25, Number.NaN, 1])!;
    expect(scale).toEqual({ min: -0.25, max: 1 });
    expect(scalePosition(-0.25, scale)).toBe(0);
    expect(scalePosition(0.375, scale)).toBe(0.5);
    expect(scalePosition(1, scale)).toBe(1);
    expect(scalePosition(3, { min: 3, max: 3 })).toBe(0.5);
    expect(scaleOf([null])).toBeUndefined();
    expect(colourAt(0)).toBe('rgb(68, 1, 84)');
    expect(colourAt(1)).toBe('rgb(253, 231, 37)');
    expect(colourAt(Number.NaN)).toBe('rgb(68, 1, 84)');
    expect(colourAt(0.5)).toBe('rgb(35, 144, 140)');
  });

  it('ranks the top cells highest first, ties in the server’s cell order, nulls last', () => {
    const cells = [cell({ a: 1 }, { sharpe_ratio: null }), cell({ a: 2 }, { sharpe_ratio: 0.5 }), cell({ a: 3 }, { sharpe_ratio: 2 }), cell({ a: 4 }, { sharpe_ratio: 0.5 })];
    expect(topCells(cells, 'sharpe_ratio', 10).map((c) => c.params.a)).toEqual([3, 2, 4, 1]);
    expect(topCells(cells, 'sharpe_ratio', 2).map((c) => c.params.a)).toEqual([3, 2]);
    // The shallowest drawdown is the highest value.
    expect(topCells([cell({ a: 1 }, { max_drawdown: -0.3 }), cell({ a: 2 }, { max_drawdown: -0.1 })], 'max_drawdown', 1)[0]!.params.a).toBe(2);
  });
  it('ranks thin cells (too few trades) after every other, whatever their objective, as the server does', () => {
    const cells = [cell({ a: 1 }, { sharpe_ratio: 3, total_trades: 2 }, true), cell({ a: 2 }, { sharpe_ratio: null }), cell({ a: 3 }, { sharpe_ratio: 0.5 }), cell({ a: 4 }, { sharpe_ratio: 1 }, true)];
    expect(topCells(cells, 'sharpe_ratio', 10).map((c) => c.params.a)).toEqual([3, 2, 1, 4]);
    expect(thinNote(10)).toBe('fewer than 10 trades: ranked below every cell with enough');
  });
});

describe('an out-of-sample run without a trade', () => {
  it('says so in words, with the days and the parameters, instead of bare zeros', () => {
    const flat: SweepMetrics = { total_return: 0, annualized_return: 0, sharpe_ratio: null, max_drawdown: 0, win_rate: null, profit_factor: null, total_trades: 0 };
    expect(noTradeNote(flat, 'Fast period 40, slow period 200', '2019-01-02', '2020-04-17')).toBe(
      'No trade in this window: the chosen parameters (fast period 40, slow period 200) never signalled between 2019-01-02 and 2020-04-17; its return is 0 by holding cash, and the ratios that need a trade have no value.',
    );
    expect(noTradeNote({ ...flat, total_trades: 1 }, 'Fast period 40', '2019-01-02', '2020-04-17')).toBeUndefined();
  });
});

describe('the out-of-sample warning', () => {
  const year = (annualized_return: number | null): SweepMetrics => ({ ...METRICS, annualized_return });
  it('warns when a profitable in-sample cell loses money out of sample or makes less than half as much a year', () => {
    expect(outOfSampleWarning(year(0.1), year(-0.01))).toMatch(/^Out of sample the best in-sample parameters lost money \(-1\.00% a year against 10\.00% in sample\)/);
    expect(outOfSampleWarning(year(0.1), year(0.049))).toMatch(/less than half as much a year \(4\.90% against 10\.00%/);
    expect(outOfSampleWarning(year(0.1), year(0.05))).toBeUndefined();
    expect(outOfSampleWarning(year(0.1), year(0.2))).toBeUndefined();
    // An in-sample loss, or a figure without a value, has no "much worse" to warn about.
    expect(outOfSampleWarning(year(-0.1), year(-0.5))).toBeUndefined();
    expect(outOfSampleWarning(year(null), year(-0.5))).toBeUndefined();
    expect(outOfSampleWarning(year(0.1), year(null))).toBeUndefined();
  });
});

describe('opening a cell in the lab', () => {
  const market = { ...DEFAULT_MARKET_INPUTS, symbol: 'spx ', initial_capital: '25000' };
  it('puts the backtest in the lab’s address and reads it back', () => {
    const href = labHref({ market, strategy: 'sma_crossover', params: { fast_period: 10, slow_period: 40 } });
    expect(href).toBe('/?symbol=SPX&strategy=sma_crossover&start_date=2000-01-03&end_date=2020-04-17&initial_capital=25000&fast_period=10&slow_period=40');
    const read = labPrefill(new URL(href, 'http://localhost').searchParams, [RSI, SMA])!;
    expect(read.template.id).toBe('sma_crossover');
    expect(read.parameters).toEqual({ fast_period: '10', slow_period: '40' });
    expect(read.market).toEqual({ ...DEFAULT_MARKET_INPUTS, initial_capital: '25000' });
    expect(labHref({ market: { ...market, data_feed: 'sip' }, strategy: 'sma_crossover', params: {} })).toContain('&data_feed=sip');
  });

  it('fills missing parameters with the defaults and ignores an address that names no known template', () => {
    const read = labPrefill(new URLSearchParams('strategy=sma_crossover&slow_period=50&data_feed=bogus'), [SMA])!;
    expect(read.parameters).toEqual({ fast_period: '10', slow_period: '50' });
    expect(read.market).toEqual(DEFAULT_MARKET_INPUTS);
    expect(labPrefill(new URLSearchParams(''), [SMA])).toBeUndefined();
    expect(labPrefill(new URLSearchParams('strategy=nope'), [SMA])).toBeUndefined();
  });
});

describe('the out-of-sample inputs and the sweep’s refusals', () => {
  const period = { start_date: '2000-01-03', end_date: '2020-04-17' };
  it('sends shares as fractions, and checks them and the split date before sending', () => {
    expect(validationRequest(DEFAULT_VALIDATION)).toBeUndefined();
    expect(validationRequest({ ...DEFAULT_VALIDATION, kind: 'fraction' })).toEqual({ in_sample_fraction: 0.7 });
    expect(validationRequest({ ...DEFAULT_VALIDATION, kind: 'split_date' })).toEqual({ split_date: '2015-01-02' });
    expect(validationRequest({ ...DEFAULT_VALIDATION, kind: 'walk_forward' })).toEqual({ walk_forward: { windows: 5, in_sample_fraction: 0.7 } });
    expect(checkValidation({ ...DEFAULT_VALIDATION, kind: 'walk_forward', in_sample_percent: '100', windows: '1' }, period)).toEqual({
      'validation.in_sample_percent': 'Enter a share above 0 and below 100.',
      'validation.windows': 'Enter a whole number from 2 to 50.',
    });
    expect(checkValidation({ ...DEFAULT_VALIDATION, kind: 'split_date', split_date: '2000-01-03' }, period)).toEqual({
      'validation.split_date': 'Enter a day after the start date and not after the end date.',
    });
    expect(checkValidation({ ...DEFAULT_VALIDATION, kind: 'none', in_sample_percent: '' }, period)).toEqual({});
  });

  it('places the server’s grid, validation and objective refusals on their groups, the rest as the lab does', () => {
    expect(sweepFormErrors(new ApiError(400, 'invalid_grid', 'Out.', [{ field: 'body.grid.fast_period.max', message: 'x' }])).fields).toEqual({ 'grid.fast_period': 'Out.' });
    expect(sweepFormErrors(new ApiError(400, 'grid_too_large', 'Big.')).fields).toEqual({ grid: 'Big.' });
    expect(sweepFormErrors(new ApiError(400, 'invalid_validation', 'Short.')).fields).toEqual({ validation: 'Short.' });
    expect(sweepFormErrors(new ApiError(400, 'validation_failed', 'No.', [{ field: 'body.validation.walk_forward.windows', message: 'x' }])).fields).toEqual({ validation: 'No.' });
    expect(sweepFormErrors(new ApiError(404, 'invalid_symbol', 'None.')).fields).toEqual({ symbol: 'None.' });
    expect(sweepFormErrors(new ApiError(503, 'busy', 'Busy.')).form).toMatch(/\(503\): Busy\./);
    expect(sweepFormErrors(new ApiError(400, 'validation_failed', 'Whole.', [{ field: 'body.min_trades', message: 'x' }])).fields).toEqual({ min_trades: 'Whole.' });
  });

  it('takes a minimum of trades from 0 to 100,000, whole', () => {
    for (const good of ['0', '10', '100000']) expect(checkMinTrades(good)).toEqual({});
    for (const bad of ['', '-1', '2.5', '100001', 'ten']) expect(checkMinTrades(bad)).toEqual({ min_trades: 'Enter a whole number of trades from 0 to 100,000.' });
  });
});
