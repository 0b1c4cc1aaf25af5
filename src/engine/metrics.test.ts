import { describe, expect, it } from 'vitest';
import { annualizedReturn, exposure, maxDrawdown, roundTripStatistics, sharpeRatio, sortinoRatio, tradeStatistics } from './metrics.js';
import type { BacktestTrade } from './types.js';

const sale = (pnl: number, duration: number): BacktestTrade => ({
  date: '2024-01-02T00:00:00.000Z', type: 'SELL', price: 1, shares: 1, value: 1, pnl, return: 0, duration, commission: 0,
});
const purchase: BacktestTrade = {
  date: '2024-01-01T00:00:00.000Z', type: 'BUY', price: 1, shares: 1, value: 1, pnl: null, return: null, duration: null, commission: 0,
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

  it('Sharpe in one pass (Σr, Σr²) agrees with the two-pass definition Σ(r − mean)² to far below the output rounding', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const drift of [0, 0.0005, 0.003]) {
      const equity = new Float64Array(5000);
      equity[0] = 100_000;
      for (let t = 1; t < equity.length; t++) equity[t] = equity[t - 1]! * (1 + drift + (random() - 0.5) * 0.02);
      const returns = Array.from({ length: equity.length - 1 }, (_, i) => equity[i + 1]! / equity[i]! - 1);
      const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
      const deviation = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1));
      const twoPass = (mean / deviation) * Math.sqrt(252);
      expect(Math.abs(sharpeRatio(equity)! - twoPass)).toBeLessThan(1e-12 * Math.max(1, Math.abs(twoPass)));
    }
  });

  it('Sharpe against exact rational arithmetic: none when every return is the same, else the same to 12 digits', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const geometric = (growth: number, bars: number) => {
      const equity = new Float64Array(bars);
      equity[0] = 100_000;
      for (let t = 1; t < bars; t++) equity[t] = equity[t - 1]! * growth;
      return equity;
    };
    // 1 % a day for 50 days: every return the same double, so the exact deviation is 0. The unshifted one-pass sums
    // (Σr² − Σr · mean) left 3·10⁻¹⁰ of rounding there, a Sharpe ratio of 6·10⁸.
    const steady = geometric(1.01, 50);
    expect(exactSharpe(steady)).toBeNull();
    expect(sharpeRatio(steady)).toBeNull();
    expect(sharpeRatio(geometric(1.0003, 1000))).toBeNull();
    const series = [geometric(1.1, 50), geometric(0.999, 1000), geometric(1.07, 5000)]; // returns a few ulps apart
    for (const drift of [0, 0.0005, 0.003]) {
      const equity = new Float64Array(5000);
      equity[0] = 100_000;
      for (let t = 1; t < equity.length; t++) equity[t] = equity[t - 1]! * (1 + drift + (random() - 0.5) * 0.02);
      series.push(equity);
    }
    for (const equity of series) {
      const exact = exactSharpe(equity)!;
      expect(Math.abs(sharpeRatio(equity)! - exact)).toBeLessThan(1e-12 * Math.abs(exact));
    }
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

  it('Sortino: mean over the downside deviation (n − 1, gains count as 0), null without a losing day', () => {
    // returns 0.1, −0.1, 0.1 (110, 99, 108.9): mean 0.1/3; downside √(0.01 / 2) → (0.1/3) / √0.005 × √252
    expect(sortinoRatio(new Float64Array([100, 110, 99, 108.9]))).toBeCloseTo(((0.1 / 3) / Math.sqrt(0.005)) * Math.sqrt(252), 9);
    expect(sortinoRatio(new Float64Array([100, 110, 121]))).toBeNull(); // no loss: deviation 0
    expect(sortinoRatio(new Float64Array([100, 90]))).toBeNull(); // one return
    expect(sortinoRatio(new Float64Array([100, 100, 100]))).toBeNull();
    // returns −0.5, 0: mean −0.25, downside √(0.25 / 1) = 0.5 → −0.5 × √252
    expect(sortinoRatio(new Float64Array([100, 50, 50]))).toBeCloseTo(-0.5 * Math.sqrt(252), 12);
  });

  it('exposure: the fraction of bars held at the close, null without bars', () => {
    expect(exposure(Uint8Array.from([0, 1, 1, 0]))).toBe(0.5);
    expect(exposure(Uint8Array.from([0, 0]))).toBe(0);
    expect(exposure(Uint8Array.from([1]))).toBe(1);
    expect(exposure(new Uint8Array(0))).toBeNull();
  });

  it('round-trip statistics given directly agree with those of SELL trades', () => {
    expect(roundTripStatistics([{ pnl: 30, holdingDays: 1 }, { pnl: -10, holdingDays: 3 }])).toEqual(
      tradeStatistics([purchase, sale(30, 1), purchase, sale(-10, 3)]),
    );
  });
});

/**
 * The Sharpe ratio of the equity's daily returns (each return the double metrics.ts computes) in exact arithmetic:
 * the returns as integers over 2^1100, so sums and squares are exact, rounded once at the end.
 */
function exactSharpe(equity: Float64Array): number | null {
  const n = BigInt(equity.length - 1);
  let sum = 0n;
  let squares = 0n;
  for (let t = 1; t < equity.length; t++) {
    const before = equity[t - 1]!;
    const now = equity[t]!;
    const scaled = scaledExactly(now === before || before === 0 ? 0 : now / before - 1);
    sum += scaled;
    squares += scaled * scaled;
  }
  const spread = n * squares - sum * sum; // n(n − 1) · variance, scaled
  if (spread === 0n) return null;
  // sharpe² = sum² (n − 1) 252 / (n · spread), to 200 bits
  const squared = Number((sum * sum * (n - 1n) * 252n << 200n) / (n * spread)) / 2 ** 200;
  return Math.sign(Number(sum)) * Math.sqrt(squared);
}

/** A finite double times 2^1100, exactly, as a BigInt. */
function scaledExactly(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const shift = BigInt((exponent === 0 ? 1 : exponent) - 1075 + 1100);
  const magnitude = mantissa << shift;
  return bits >> 63n ? -magnitude : magnitude;
}
