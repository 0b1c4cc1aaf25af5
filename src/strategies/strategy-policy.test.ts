import { describe, expect, it } from 'vitest';
import { allowedSides, allowedSymbols, positionSideOf, positionSize, tradesOptions } from './strategy-policy.js';

describe('the strategy policy', () => {
  it('reads the allowlist as symbols, each once, or null when there is none', () => {
    expect(allowedSymbols({ entry_symbol_allowlist: 'SPY,QQQ' })).toEqual(['SPY', 'QQQ']);
    expect(allowedSymbols({ entry_symbol_allowlist: 'SPY, qqq,SPY,' })).toEqual(['SPY', 'QQQ']);
    expect(allowedSymbols({ entry_symbol_allowlist: null })).toBeNull();
  });

  it('reads the allowed sides, or null when both are allowed unsaid', () => {
    expect(allowedSides({ entry_allowed_sides: 'buy,sell' })).toEqual(['buy', 'sell']);
    expect(allowedSides({ entry_allowed_sides: 'sell' })).toEqual(['sell']);
    expect(allowedSides({ entry_allowed_sides: null })).toBeNull();
  });

  it('sizes a position in dollars, 100 shares per option contract', () => {
    expect(positionSize(10, 450.5, false)).toBe(4505);
    expect(positionSize(2, 1.25, true)).toBe(250);
  });

  it('gives each type its replay side: options types have none', () => {
    expect(positionSideOf({ strategy_type: 'equity_long', entry_allowed_sides: null })).toBe('long');
    expect(positionSideOf({ strategy_type: 'equity_short', entry_allowed_sides: 'buy' })).toBe('short');
    expect(positionSideOf({ strategy_type: 'custom', entry_allowed_sides: 'sell' })).toBe('short');
    expect(positionSideOf({ strategy_type: 'custom', entry_allowed_sides: 'buy,sell' })).toBe('long');
    expect(positionSideOf({ strategy_type: 'iron_condor', entry_allowed_sides: null })).toBeNull();
    expect(tradesOptions({ strategy_type: 'vertical_spread' })).toBe(true);
    expect(tradesOptions({ strategy_type: 'custom' })).toBe(false);
  });
});
