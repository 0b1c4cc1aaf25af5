import { describe, expect, it } from 'vitest';
import { statsBySymbol } from './trade-stats.js';

describe('statsBySymbol', () => {
  it('counts, win rate, Σ pnl and mean return per symbol; a break-even trade is neither win nor loss', () => {
    const stats = statsBySymbol([
      { symbol: 'SPY', pnl: 100, return: 0.1 },
      { symbol: 'QQQ', pnl: -50, return: -0.05 },
      { symbol: 'SPY', pnl: -20, return: -0.02 },
      { symbol: 'SPY', pnl: 0, return: 0 },
    ]);
    expect(Object.keys(stats)).toEqual(['SPY', 'QQQ']);
    expect(stats.SPY).toEqual({ total_trades: 3, winning_trades: 1, losing_trades: 1, win_rate: 1 / 3, pnl: 80, avg_return: (0.1 - 0.02) / 3 });
    expect(stats.QQQ).toEqual({ total_trades: 1, winning_trades: 0, losing_trades: 1, win_rate: 0, pnl: -50, avg_return: -0.05 });
  });

  it('is empty without trades', () => {
    expect(statsBySymbol([])).toEqual({});
  });
});
