/**
 * Golden cases of the library replay with the execution model (DESIGN.md "Execution model"): costs on long and short
 * positions (a short entry is a sell, its cover a buy, each slipped within its bar), percent_of_equity sizing on a
 * second entry, a trailing stop on a short. Trades, equity and costs paid worked out by hand beside them.
 * Bars: [date, open, high, low, close]; signals: '0'/'1' per bar.
 */
import { describe, expect, it } from 'vitest';
import { NO_COSTS, type Costs, type Sizing } from '../execution/settings.js';
import type { BarSeries } from '../types.js';
import { replayStrategy } from './replay.js';
import type { ExitReason, ReplayStrategy } from './types.js';

type Row = readonly [date: string, open: number, high: number, low: number, close: number];

const series = (rows: readonly Row[]): BarSeries => ({
  dates: rows.map((r) => r[0]),
  open: Float64Array.from(rows, (r) => r[1]),
  high: Float64Array.from(rows, (r) => r[2]),
  low: Float64Array.from(rows, (r) => r[3]),
  close: Float64Array.from(rows, (r) => r[4]),
  volume: new Float64Array(rows.length),
});
const flat = (date: string, open: number, close: number): Row => [date, open, Math.max(open, close), Math.min(open, close), close];
const signals = (text: string): Uint8Array => Uint8Array.from(text, (c) => (c === '1' ? 1 : 0));

interface Trade {
  readonly entry_date: string;
  readonly entry_price: number;
  readonly exit_date: string;
  readonly exit_price: number;
  readonly qty: number;
  readonly pnl: number;
  readonly return: number;
  readonly commission: number;
  readonly exit_reason: ExitReason;
}

interface GoldenCase {
  readonly name: string;
  readonly strategy?: Partial<ReplayStrategy>;
  readonly costs?: Partial<Costs>;
  readonly sizing?: Sizing;
  readonly capital: number;
  readonly bars: readonly Row[];
  readonly entry: string;
  readonly exit: string;
  readonly trades: readonly Trade[];
  readonly equity: readonly number[];
  readonly paid: { readonly commission: number; readonly slippage: number };
}

const CASES: readonly GoldenCase[] = [
  {
    name: 'long with slippage and a per-share commission with a minimum',
    capital: 1000, costs: { slippage_bps: 50, commission_per_share: 0.01, commission_min: 1 },
    bars: [['2024-01-01', 10, 10, 10, 10], ['2024-01-02', 10, 10.2, 9.8, 11], ['2024-01-03', 11, 12, 11, 12], ['2024-01-04', 12, 12.1, 11.9, 12]],
    entry: '1000', exit: '0010',
    // Buy at 10 × 1.005 = 10.05: 99 shares cost 994.95 + max(1, 0.99) = 995.95 (100 would be 1005 + 1); cash 4.05.
    // Exit rule on t2's close, at t3's open: 12 × 0.995 = 11.94 (above the low 11.9), commission 1; cash 4.05 + 1182.06 − 1.
    // pnl 99 × (11.94 − 10.05) − 2 = 185.11, return 185.11 / 995.95. Slippage 99 × 0.05 + 99 × 0.06 = 10.89.
    trades: [{ entry_date: '2024-01-02', entry_price: 10.05, exit_date: '2024-01-04', exit_price: 11.94, qty: 99, pnl: 185.11, return: 185.11 / 995.95, commission: 2, exit_reason: 'exit_rule' }],
    equity: [1000, 4.05 + 99 * 11, 4.05 + 99 * 12, 1185.11],
    paid: { commission: 2, slippage: 10.89 },
  },
  {
    name: 'a short: the entry a sell floored at the low, the cover at the end a buy slipped up',
    strategy: { side: 'short' }, capital: 1100, costs: { slippage_bps: 100, commission_min: 2 },
    bars: [['2024-01-01', 50, 50, 50, 50], ['2024-01-02', 50, 50.5, 49.9, 48], ['2024-01-03', 47, 47.5, 46, 46]],
    entry: '100', exit: '000',
    // Sell at max(low 49.9, 50 × 0.99 = 49.5) = 49.9: 22 × 49.9 + 2 = 1099.8 ≤ 1100; cash 1100 + 1097.8 − 2 = 2195.8.
    // The end: cover at min(high 47.5, 46 × 1.01 = 46.46) = 46.46, + 2; cash 2195.8 − 1022.12 − 2 = 1171.68 (the
    // last equity, marked again after the sale). pnl 22 × (49.9 − 46.46) − 4 = 71.68, return 71.68 / (1097.8 + 2).
    trades: [{ entry_date: '2024-01-02', entry_price: 49.9, exit_date: '2024-01-03', exit_price: 46.46, qty: 22, pnl: 71.68, return: 71.68 / 1099.8, commission: 4, exit_reason: 'end_of_period' }],
    equity: [1100, 2195.8 - 22 * 48, 1171.68],
    paid: { commission: 4, slippage: 22 * 0.1 + 22 * 0.46 },
  },
  {
    name: 'a short\'s trailing stop: above the lowest close since the entry',
    strategy: { side: 'short', trailingStopPct: 0.1 }, capital: 1000,
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 9), flat('2024-01-03', 9, 8), flat('2024-01-04', 8, 8.9), flat('2024-01-05', 9, 9)],
    entry: '10000', exit: '00000',
    // 100 short at 10, cash 2000. Lowest close 9 then 8: level 8 × 1.1 = 8.8; 8.9 ≥ 8.8 → trailing_stop, covered at 9.
    trades: [{ entry_date: '2024-01-02', entry_price: 10, exit_date: '2024-01-05', exit_price: 9, qty: 100, pnl: 100, return: 0.1, commission: 0, exit_reason: 'trailing_stop' }],
    equity: [1000, 1100, 1200, 1110, 1100],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'percent_of_equity: the second entry budgets half of the equity grown by the first',
    capital: 1000, sizing: { mode: 'percent_of_equity', value: 0.5 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 20), flat('2024-01-03', 20, 20), flat('2024-01-04', 20, 20)],
    entry: '1010', exit: '0100',
    // Equity at t0's close 1000: 500 buys 50 at 10, cash 500; sold at t2's open 20: cash 1500. Equity at t2's close
    // 1500: 750 buys floor(750 / 20) = 37 at t3's open (740), cash 760; sold at the end at 20: 1500.
    trades: [
      { entry_date: '2024-01-02', entry_price: 10, exit_date: '2024-01-03', exit_price: 20, qty: 50, pnl: 500, return: 1, commission: 0, exit_reason: 'exit_rule' },
      { entry_date: '2024-01-04', entry_price: 20, exit_date: '2024-01-04', exit_price: 20, qty: 37, pnl: 0, return: 0, commission: 0, exit_reason: 'end_of_period' },
    ],
    equity: [1000, 1500, 1500, 1500],
    paid: { commission: 0, slippage: 0 },
  },
];

const LONG: ReplayStrategy = { side: 'long', maxPositionSize: null, profitTargetPct: null, stopLossPct: null, trailingStopPct: null };

function expectClose(actual: number | undefined, expected: number, what: string): void {
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

describe('golden library replays with costs and sizing', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, golden) => {
    const input = { symbol: 'AAA', bars: series(golden.bars), entry: signals(golden.entry), exit: signals(golden.exit) };
    const execution = { costs: { ...NO_COSTS, ...golden.costs }, sizing: golden.sizing ?? { mode: 'all_in' as const } };
    const result = replayStrategy([input], { ...LONG, ...golden.strategy }, golden.capital, execution);
    expect(result.trades.length).toBe(golden.trades.length);
    result.trades.forEach((actual, i) => {
      const expected = golden.trades[i]!;
      expect([actual.entry_date, actual.exit_date, actual.qty, actual.exit_reason]).toEqual([expected.entry_date, expected.exit_date, expected.qty, expected.exit_reason]);
      for (const key of ['entry_price', 'exit_price', 'pnl', 'return', 'commission'] as const) expectClose(actual[key], expected[key], `trade ${i} ${key}`);
    });
    golden.equity.forEach((value, t) => expectClose(result.equity_curve[t], value, `equity[${t}]`));
    expectClose(result.final_capital, golden.capital + golden.trades.reduce((sum, t) => sum + t.pnl, 0), 'final = capital + Σ pnl');
    expectClose(result.costs_paid.commission, golden.paid.commission, 'costs_paid.commission');
    expectClose(result.costs_paid.slippage, golden.paid.slippage, 'costs_paid.slippage');
  });
});
