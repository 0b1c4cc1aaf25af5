/**
 * Golden cases: tiny hand-written bar series with the expected trades, equity curve, drawdowns and every metric
 * worked out by hand beside them. Conventions under test (docs/backtesting.md): signal on the close of t, fill at
 * the open of t + 1, floor(cash / open) shares, an open position sold at the last close, equity = cash + shares ×
 * close, drawdown = equity / running peak − 1. Bars: [date, open, close]; high = max(open, close), low = min.
 */
import { describe, expect, it } from 'vitest';
import { goldenSeries as series, type GoldenBar } from '../../test/fixtures/bar-series.js';
import { findTemplate, resolveTemplateParameters, runTemplateBacktest } from './index.js';
import type { BacktestMetrics, BacktestTrade, SuppliedParameter } from './types.js';

type Bar = GoldenBar;

interface GoldenCase {
  readonly name: string;
  readonly template: string;
  readonly params?: readonly SuppliedParameter[];
  readonly capital: number;
  readonly bars: readonly Bar[];
  readonly trades: readonly BacktestTrade[];
  readonly equity: readonly number[];
  readonly drawdowns: readonly number[];
  readonly metrics: BacktestMetrics;
}

/** Sample Sharpe of hand-listed daily returns: mean / stdev(n − 1) × √252. */
function sharpe(returns: readonly number[]): number {
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1);
  return (mean / Math.sqrt(variance)) * Math.sqrt(252);
}

const buy = (date: string, price: number, shares: number): BacktestTrade => ({
  date: `${date}T00:00:00.000Z`, type: 'BUY', price, shares, value: price * shares, pnl: null, return: null, duration: null, commission: 0,
});
const sell = (date: string, price: number, shares: number, pnl: number, ret: number, duration: number): BacktestTrade => ({
  date: `${date}T00:00:00.000Z`, type: 'SELL', price, shares, value: price * shares, pnl, return: ret, duration, commission: 0,
});

const NO_TRADE_STATS = {
  win_rate: null, profit_factor: null, total_trades: 0, winning_trades: 0, losing_trades: 0,
  avg_profit: null, avg_loss: null, avg_holding_days: null,
} as const;

// SMA(2) vs SMA(5) over these closes (worked out by hand):
//   t      0   1   2   3   4   5     6     7     8     9     10    11
//   close 10  10  10  10  10  12    14    13     9     8     8     8
//   fast   -  10  10  10  10  11    13    13.5  11    8.5   8     8
//   slow   -   -   -   -  10  10.4  11.2  11.8  11.6  11.2  10.4  9.2
// t5: fast was <= slow (10 <= 10, equality counts) and is now above → ENTER, filled at open[6] = 13.
// t8: fast was >= slow (13.5 >= 11.8) and is now below (11 < 11.6) → EXIT, filled at open[9] = 10.
const CROSSOVER_BARS: readonly Bar[] = [
  ['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 10, 10], ['2024-01-04', 10, 10],
  ['2024-01-05', 10, 10], ['2024-01-06', 10, 12], ['2024-01-07', 13, 14], ['2024-01-08', 14, 13],
  ['2024-01-09', 13, 9], ['2024-01-10', 10, 8], ['2024-01-11', 8, 8], ['2024-01-12', 8, 8],
];

const CASES: readonly GoldenCase[] = [
  {
    name: 'a single bar: buy_and_hold signals on it, but the last bar never fills',
    template: 'buy_and_hold', capital: 1000,
    bars: [['2024-01-01', 10, 11]],
    trades: [], equity: [1000], drawdowns: [0],
    // 0 calendar days → annualized null (zero denominator); one bar has no daily return → Sharpe null.
    metrics: { final_capital: 1000, total_return: 0, annualized_return: null, sharpe_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS },
  },
  {
    name: 'no trades: falling closes, the fast SMA never crosses above the slow one',
    template: 'sma_crossover', params: [{ name: 'fast_period', value: 2 }, { name: 'slow_period', value: 5 }], capital: 1000,
    bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 9], ['2024-01-03', 9, 8], ['2024-01-04', 8, 7],
      ['2024-01-05', 7, 6], ['2024-01-06', 6, 5], ['2024-01-07', 5, 4]],
    trades: [], equity: [1000, 1000, 1000, 1000, 1000, 1000, 1000], drawdowns: [0, 0, 0, 0, 0, 0, 0],
    // Flat equity: every daily return 0, standard deviation 0 → Sharpe null; (1000/1000)^(365.25/6) − 1 = 0.
    metrics: { final_capital: 1000, total_return: 0, annualized_return: 0, sharpe_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS },
  },
  {
    name: 'no trades: a signal on the last bar is never filled (the crossover series cut after t5)',
    template: 'sma_crossover', params: [{ name: 'fast_period', value: 2 }, { name: 'slow_period', value: 5 }], capital: 1000,
    bars: CROSSOVER_BARS.slice(0, 6),
    trades: [], equity: [1000, 1000, 1000, 1000, 1000, 1000], drawdowns: [0, 0, 0, 0, 0, 0],
    metrics: { final_capital: 1000, total_return: 0, annualized_return: 0, sharpe_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS },
  },
  {
    name: 'no trades: the cash does not buy one whole share (floor(5 / 10) = 0)',
    template: 'buy_and_hold', capital: 5,
    bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 12], ['2024-01-03', 12, 9]],
    trades: [], equity: [5, 5, 5], drawdowns: [0, 0, 0],
    metrics: { final_capital: 5, total_return: 0, annualized_return: 0, sharpe_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS },
  },
  {
    name: 'one losing trade: sma_crossover(2, 5) enters on a crossover and exits on the cross back',
    template: 'sma_crossover', params: [{ name: 'fast_period', value: 2 }, { name: 'slow_period', value: 5 }], capital: 1000,
    bars: CROSSOVER_BARS,
    // BUY at open[6] = 13: floor(1000 / 13) = 76 shares = 988, cash 12. SELL at open[9] = 10: 760, cash 772.
    // pnl 760 − 988 = −228; return 10/13 − 1 = −3/13; held 2024-01-07 → 2024-01-10 = 3 days.
    trades: [buy('2024-01-07', 13, 76), sell('2024-01-10', 10, 76, -228, -3 / 13, 3)],
    // t6: 12 + 76·14 = 1076; t7: 12 + 76·13 = 1000; t8: 12 + 76·9 = 696; from t9 cash 772.
    equity: [1000, 1000, 1000, 1000, 1000, 1000, 1076, 1000, 696, 772, 772, 772],
    // Peak 1076 from t6: 1000/1076 − 1, 696/1076 − 1 = −0.3532, 772/1076 − 1.
    drawdowns: [0, 0, 0, 0, 0, 0, 0, 1000 / 1076 - 1, 696 / 1076 - 1, 772 / 1076 - 1, 772 / 1076 - 1, 772 / 1076 - 1],
    metrics: {
      final_capital: 772,
      total_return: -0.228,
      annualized_return: Math.pow(0.772, 365.25 / 11) - 1, // 11 calendar days → −0.99981
      // returns: 0 ×5, 1076/1000 − 1 = 0.076, 1000/1076 − 1, 696/1000 − 1 = −0.304, 772/696 − 1, 0, 0 → −2.5850
      sharpe_ratio: sharpe([0, 0, 0, 0, 0, 0.076, 1000 / 1076 - 1, -0.304, 772 / 696 - 1, 0, 0]),
      max_drawdown: 696 / 1076 - 1,
      win_rate: 0, // 0 wins of 1
      profit_factor: 0, // gross profit 0 / |gross loss| 228
      total_trades: 1, winning_trades: 0, losing_trades: 1,
      avg_profit: null, avg_loss: -228, avg_holding_days: 3,
    },
  },
  {
    name: 'a position open at the end: buy_and_hold is sold at the last close and reported as a SELL',
    template: 'buy_and_hold', capital: 1000,
    bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 11, 12], ['2024-01-05', 12, 10], ['2024-01-08', 10, 12.5]],
    // Signal on bar 0's close, BUY at open[1] = 10: 100 shares, cash 0. SELL at close[4] = 12.5: 1250.
    // pnl 250; return 0.25; 2024-01-02 → 2024-01-08 = 6 days.
    trades: [buy('2024-01-02', 10, 100), sell('2024-01-08', 12.5, 100, 250, 0.25, 6)],
    equity: [1000, 1100, 1200, 1000, 1250],
    drawdowns: [0, 0, 0, 1000 / 1200 - 1, 0],
    metrics: {
      final_capital: 1250,
      total_return: 0.25,
      annualized_return: Math.pow(1.25, 365.25 / 7) - 1, // 7 calendar days → 113925.84
      sharpe_ratio: sharpe([0.1, 1 / 11, -1 / 6, 0.25]), // 6.2928
      max_drawdown: -1 / 6,
      win_rate: 1,
      profit_factor: null, // no losing trade: |gross loss| = 0
      total_trades: 1, winning_trades: 1, losing_trades: 0,
      avg_profit: 250, avg_loss: null, avg_holding_days: 6,
    },
  },
  {
    name: 'flat prices: a break-even round trip, zero variance (Sharpe null)',
    template: 'buy_and_hold', capital: 1000,
    bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 10, 10], ['2024-01-04', 10, 10]],
    // BUY 100 at 10, SELL 100 at the last close 10: pnl 0 is neither a win nor a loss.
    trades: [buy('2024-01-02', 10, 100), sell('2024-01-04', 10, 100, 0, 0, 2)],
    equity: [1000, 1000, 1000, 1000],
    drawdowns: [0, 0, 0, 0],
    metrics: {
      final_capital: 1000, total_return: 0, annualized_return: 0, sharpe_ratio: null, max_drawdown: 0,
      win_rate: 0, profit_factor: null, total_trades: 1, winning_trades: 0, losing_trades: 0,
      avg_profit: null, avg_loss: null, avg_holding_days: 2,
    },
  },
  {
    name: 'all trades winning: donchian_breakout(2, 2), two round trips, the second open at the end',
    template: 'donchian_breakout', params: [{ name: 'entry_period', value: 2 }, { name: 'exit_period', value: 2 }], capital: 1000,
    // t2: close 11 > max(high[0], high[1]) = 10 → ENTER; BUY open[3] = 11: floor(1000/11) = 90 (990), cash 10.
    // t3: close 12 > 11 is an ENTER again, ignored while long (no pyramiding).
    // t5: close 10 < min(low[3], low[4]) = min(11, 12) → EXIT; SELL open[6] = 12: 1080, cash 1090.
    //     pnl 1080 − 990 = 90, return 12/11 − 1, 2024-01-04 → 2024-01-07 = 3 days.
    // t7: close 14 > max(high[5], high[6]) = max(13, 12) → ENTER; BUY open[8] = 14: floor(1090/14) = 77 (1078), cash 12.
    // end: SELL at close[9] = 16: 1232, pnl 154, return 16/14 − 1 = 1/7, 2024-01-09 → 2024-01-10 = 1 day.
    bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 10, 11], ['2024-01-04', 11, 12],
      ['2024-01-05', 12, 13], ['2024-01-06', 13, 10], ['2024-01-07', 12, 12], ['2024-01-08', 12, 14],
      ['2024-01-09', 14, 15], ['2024-01-10', 15, 16]],
    trades: [
      buy('2024-01-04', 11, 90), sell('2024-01-07', 12, 90, 90, 12 / 11 - 1, 3),
      buy('2024-01-09', 14, 77), sell('2024-01-10', 16, 77, 154, 16 / 14 - 1, 1),
    ],
    // t3: 10 + 90·12; t4: 10 + 90·13; t5: 10 + 90·10; t6, t7: cash 1090; t8: 12 + 77·15; t9: 12 + 77·16.
    equity: [1000, 1000, 1000, 1090, 1180, 910, 1090, 1090, 1167, 1244],
    drawdowns: [0, 0, 0, 0, 0, 910 / 1180 - 1, 1090 / 1180 - 1, 1090 / 1180 - 1, 1167 / 1180 - 1, 0],
    metrics: {
      final_capital: 1244,
      total_return: 0.244,
      annualized_return: Math.pow(1.244, 365.25 / 9) - 1, // 9 calendar days → 7047.99
      // 4.2398
      sharpe_ratio: sharpe([0, 0, 0.09, 1180 / 1090 - 1, 910 / 1180 - 1, 1090 / 910 - 1, 0, 1167 / 1090 - 1, 1244 / 1167 - 1]),
      max_drawdown: 910 / 1180 - 1, // −0.2288
      win_rate: 1,
      profit_factor: null, // gross loss 0
      total_trades: 2, winning_trades: 2, losing_trades: 0,
      avg_profit: (90 + 154) / 2, avg_loss: null, avg_holding_days: (3 + 1) / 2,
    },
  },
];

function expectClose(actual: number | null, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

describe('golden backtests', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, golden) => {
    const template = findTemplate(golden.template)!;
    const params = resolveTemplateParameters(template, golden.params ?? []);
    const run = runTemplateBacktest(series(golden.bars), template, params, golden.capital);

    expect(run.trades.length).toBe(golden.trades.length);
    run.trades.forEach((trade, i) => {
      const expected = golden.trades[i]!;
      expect({ date: trade.date, type: trade.type, shares: trade.shares }).toEqual({
        date: expected.date, type: expected.type, shares: expected.shares,
      });
      for (const key of ['price', 'value', 'pnl', 'return', 'duration'] as const) {
        expectClose(trade[key], expected[key], `trade ${i} ${key}`);
      }
    });
    expect(run.equity.length).toBe(golden.bars.length);
    golden.equity.forEach((value, t) => expectClose(run.equity[t]!, value, `equity[${t}]`));
    golden.drawdowns.forEach((value, t) => expectClose(run.drawdowns[t]!, value, `drawdowns[${t}]`));
    expect(Object.keys(run.metrics).sort()).toEqual(Object.keys(golden.metrics).sort());
    for (const key of Object.keys(golden.metrics) as (keyof BacktestMetrics)[]) {
      expectClose(run.metrics[key], golden.metrics[key], key);
    }
  });
});
