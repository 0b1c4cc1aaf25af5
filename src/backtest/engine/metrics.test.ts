import { describe, expect, it } from 'vitest';
import { annualizedReturn, maxDrawdown, sharpeRatio, tradeStatistics } from './metrics.js';
import type { BacktestTrade } from './types.js';

const sale = (pnl: number, duration: number): BacktestTrade => ({
  date: '2024-01-02T00:00:00.000Z', type: 'SELL', price: 1, shares: 1, value: 1, pnl, return: 0, duration,
});
const purchase: BacktestTrade = {
  date: '2024-01-01T00:00:00.000Z', type: 'BUY', price: 1, shares: 1, value: 1, pnl: null, return: null, duration: null,
};

describe('metric edge cases beyond the golden backtests', () => {
  it('annualized return: one year is the total return, 0 days and overflow are null', () => {
    expect(annualizedReturn(100, 110, 365.25)).toBeCloseTo(0.1, 12);
    expect(annualizedReturn(100, 100, 0)).toBeNull();
    expect(annualizedReturn(100, 1e6, 1)).toBeNull(); // (10^4)^365.25 is not a finite double
    expect(annualizedReturn(100, 0, 30)).toBe(-1);
  });

  it('Sharpe: null with fewer than two returns or no variance, a return from 0 equity counts as 0', () => {
    expect(sharpeRatio(new Float64Array([100, 110]))).toBeNull();
    expect(sharpeRatio(new Float64Array([100, 100, 100, 100]))).toBeNull();
    // returns −1, 0, 0: mean −1/3, sample stdev √(1/3) → −1/3 / √(1/3) × √252 = −√(252/3)
    expect(sharpeRatio(new Float64Array([100, 0, 0, 0]))).toBeCloseTo(-Math.sqrt(84), 12);
  });

  it('max drawdown is the lowest drawdown, 0 when there is none', () => {
    expect(maxDrawdown(new Float64Array([0, -0.1, -0.3, 0, -0.2]))).toBe(-0.3);
    expect(maxDrawdown(new Float64Array([0, 0]))).toBe(0);
  });

  it('trade statistics count SELLs only; losses only give profit factor 0; break-even counts in the average hold', () => {
    expect(tradeStatistics([purchase, sale(-10, 4), purchase, sale(-30, 2), purchase, sale(0, 6)])).toEqual({
      win_rate: 0,
      profit_factor: 0,
      total_trades: 3,
      winning_trades: 0,
      losing_trades: 2,
      avg_profit: null,
      avg_loss: -20,
      avg_holding_days: 4,
    });
    expect(tradeStatistics([purchase, sale(30, 1), purchase, sale(-10, 3)])).toMatchObject({
      win_rate: 0.5,
      profit_factor: 3,
      avg_profit: 30,
      avg_loss: -10,
      avg_holding_days: 2,
    });
  });
});
