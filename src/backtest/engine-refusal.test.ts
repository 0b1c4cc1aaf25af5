import { describe, expect, it } from 'vitest';
import { findTemplate, resolveTemplateParameters } from '../engine/index.js';
import { BadRequest } from '../platform/errors.js';
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

  it('passes other errors and results through', () => {
    expect(refusedByEngine(() => 7)).toBe(7);
    expect(() => refusedByEngine(() => { throw new RangeError('bug'); })).toThrow(RangeError);
  });
});
