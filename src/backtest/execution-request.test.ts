import { describe, expect, it } from 'vitest';
import { FRICTIONLESS } from '../engine/execution/settings.js';
import { BadRequest } from '../platform/errors.js';
import { executionKey, libraryExits, requestedExecution } from './execution-request.js';

describe('requestedExecution', () => {
  it('is FRICTIONLESS and not named when the request names none of the four fields', () => {
    expect(requestedExecution({})).toEqual({ settings: FRICTIONLESS, named: false, benchmark: undefined });
    expect(executionKey(requestedExecution({}), null)).toEqual([]);
  });

  it('fills in the defaults, in a fixed key order, so the same settings written differently are one cache key', () => {
    const a = requestedExecution({ costs: { slippage_bps: 5, commission_pct: 0.001 } });
    const b = requestedExecution({ costs: { commission_pct: 0.001, slippage_bps: 5, commission_min: 0 }, sizing: { mode: 'all_in' } });
    expect(a.settings).toEqual({
      costs: { commission_per_share: 0, commission_pct: 0.001, commission_min: 0, slippage_bps: 5, commission_per_contract: 0 },
      sizing: { mode: 'all_in' },
      exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
    });
    const benchmark = { symbol: 'SPX', version: 3 };
    expect(JSON.stringify(executionKey(b, benchmark))).toBe(JSON.stringify(executionKey(a, benchmark)));
    expect(JSON.stringify(executionKey(requestedExecution({ costs: { commission_pct: 0.002 } }), benchmark))).not.toBe(JSON.stringify(executionKey(a, benchmark)));
    // Naming only a benchmark is naming a setting: the answer carries the echo.
    expect(requestedExecution({ benchmark: 'QQQ' })).toMatchObject({ named: true, benchmark: 'QQQ', settings: FRICTIONLESS });
  });

  it.each([
    [{ mode: 'percent_of_equity', value: 1.01 }, '1.01 is above 1: percent_of_equity is a fraction of the equity, 0 < value ≤ 1 (0.25 = 25 %, 1 = all of it).'],
    [{ mode: 'percent_of_equity', value: -0.5 }, '-0.5 is not above 0: a fraction of the equity at the signal’s close, 0 < value ≤ 1.'],
    [{ mode: 'fixed_amount' }, 'fixed_amount needs a value (dollars per buy, 0 < value ≤ 1,000,000,000,000).'],
    [{ mode: 'fixed_shares', value: 1e10 }, '10000000000 is not a whole number of shares: a whole number of shares per buy, 1 to 1,000,000,000.'],
  ] as const)('refuses sizing %j with a message that says why', (sizing, message) => {
    expect(() => requestedExecution({ sizing })).toThrow(new BadRequest('invalid_sizing', message, [{ field: 'body.sizing.value', message }]));
  });

  it('takes the edges: a percent of equity of exactly 1, one share', () => {
    expect(requestedExecution({ sizing: { mode: 'percent_of_equity', value: 1 } }).settings.sizing).toEqual({ mode: 'percent_of_equity', value: 1 });
    expect(requestedExecution({ sizing: { mode: 'fixed_shares', value: 1 } }).settings.sizing).toEqual({ mode: 'fixed_shares', value: 1 });
  });
});

describe('libraryExits', () => {
  it('keeps the strategy’s own exits and fills in from the request only those it leaves null', () => {
    const requested = { stop_loss_pct: -0.2, take_profit_pct: 0.5, trailing_stop_pct: 0.1 };
    expect(libraryExits({ stopLossPct: -0.05, profitTargetPct: null, trailingStopPct: null }, requested)).toEqual({ stop_loss_pct: -0.05, take_profit_pct: 0.5, trailing_stop_pct: 0.1 });
    expect(libraryExits({ stopLossPct: null, profitTargetPct: 0.3, trailingStopPct: 0.02 }, requested)).toEqual({ stop_loss_pct: -0.2, take_profit_pct: 0.3, trailing_stop_pct: 0.02 });
    expect(libraryExits({ stopLossPct: null, profitTargetPct: null, trailingStopPct: null }, FRICTIONLESS.exits)).toEqual(FRICTIONLESS.exits);
  });
});
