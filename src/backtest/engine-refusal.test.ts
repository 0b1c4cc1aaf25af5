import { describe, expect, it } from 'vitest';
import { findTemplate, resolveTemplateParameters } from '../engine/index.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { BadRequest, Unprocessable } from '../platform/errors.js';
import { refusedByEngine } from './engine-refusal.js';

describe('an engine refusal in the backtest feature', () => {
  it('is a 400 with the engine\'s code, message and fields', () => {
    const sma = findTemplate('sma_crossover')!;
    let caught: unknown;
    try {
      refusedByEngine(() => resolveTemplateParameters(sma, [{ name: 'slow_period', value: 401 }]));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BadRequest);
    const refusal = caught as BadRequest;
    expect(refusal.status).toBe(400);
    expect(refusal.code).toBe('invalid_parameter');
    expect(refusal.message).toMatch(/"slow_period" must be an integer between 5 and 400; got 401/);
    expect(refusal.details?.[0]?.field).toBe('strategy_params.slow_period');
  });

  it('is a 422 for a benchmark that starts after the backtest (benchmark_too_short)', () => {
    let caught: unknown;
    try {
      refusedByEngine(() => benchmarkRun('QQQ', ['2024-01-02'], { dates: ['2024-01-03'], close: [1] }, 1_000));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Unprocessable);
    expect(caught).toMatchObject({ status: 422, code: 'benchmark_too_short', details: [{ field: 'body.benchmark' }] });
  });

  it('passes other errors and results through', () => {
    expect(refusedByEngine(() => 7)).toBe(7);
    expect(() => refusedByEngine(() => { throw new RangeError('bug'); })).toThrow(RangeError);
  });
});
