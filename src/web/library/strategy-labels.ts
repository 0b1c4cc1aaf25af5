import type { AllowedSides, StrategyType } from './types';

/**
 * Words for a strategy's type and sides, and the allowlist's normal form: what the list, backtest and trade-check
 * pages need, apart from strategy-inputs.ts so that they do not download the rule grammar.
 */
export const STRATEGY_TYPES: readonly { value: StrategyType; label: string; options: boolean }[] = [
  { value: 'equity_long', label: 'Equity, long', options: false },
  { value: 'equity_short', label: 'Equity, short', options: false },
  { value: 'custom', label: 'Custom', options: false },
  { value: 'vertical_spread', label: 'Vertical spread (options)', options: true },
  { value: 'iron_condor', label: 'Iron condor (options)', options: true },
];

export function strategyTypeLabel(type: StrategyType): string {
  return STRATEGY_TYPES.find((entry) => entry.value === type)?.label ?? type;
}

/** Option strategies: their trades have legs, and their backtests price the legs with a model. */
export function isOptionsType(type: StrategyType): type is 'iron_condor' | 'vertical_spread' {
  return STRATEGY_TYPES.some((entry) => entry.value === type && entry.options);
}

export const SIDE_CHOICES: readonly { value: AllowedSides | ''; label: string }[] = [
  { value: '', label: 'No constraint' },
  { value: 'buy', label: 'Buy only' },
  { value: 'sell', label: 'Sell only' },
  { value: 'buy,sell', label: 'Buy or sell' },
];

/** Tickers as typed ("spx, qqq  spx") → the stored list ("SPX,QQQ"): upper case, no blanks, no repeats. */
export function normaliseSymbols(typed: string): string[] {
  const symbols = typed
    .toUpperCase()
    .split(/[\s,]+/)
    .filter((symbol) => symbol !== '');
  return [...new Set(symbols)];
}
