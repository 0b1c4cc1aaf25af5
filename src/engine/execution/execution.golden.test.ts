/**
 * Golden cases of the execution model on template backtests (DESIGN.md "Execution model"): tiny hand-written bars
 * with the trades, equity and costs worked out by hand beside them, one table. Each case runs through
 * runTemplateBacktest (a fused pass, or the generic path when exits are set) and through the generic path directly:
 * both must give these numbers. Bars: [date, open, high, low, close].
 */
import { describe, expect, it } from 'vitest';
import { genericTemplateRun } from '../generic-run.js';
import { findTemplate, resolveTemplateParameters, runTemplateBacktest } from '../index.js';
import type { BarSeries, SuppliedParameter } from '../types.js';
import { ExecutionModel } from './model.js';
import { FRICTIONLESS, NO_COSTS, NO_EXITS, type Costs, type ExecutionSettings, type Exits, type Sizing, type TemplateExitReason } from './settings.js';

type Row = readonly [date: string, open: number, high: number, low: number, close: number];

function bars(rows: readonly Row[]): BarSeries {
  return {
    dates: rows.map((r) => r[0]),
    open: Float64Array.from(rows, (r) => r[1]),
    high: Float64Array.from(rows, (r) => r[2]),
    low: Float64Array.from(rows, (r) => r[3]),
    close: Float64Array.from(rows, (r) => r[4]),
    volume: new Float64Array(rows.length).fill(1000),
  };
}

/** A bar whose high and low are its open and close. */
const flat = (date: string, open: number, close: number): Row => [date, open, Math.max(open, close), Math.min(open, close), close];

interface Fill {
  readonly type: 'BUY' | 'SELL';
  readonly date: string;
  readonly price: number;
  readonly shares: number;
  readonly commission: number;
  readonly pnl?: number;
  readonly return?: number;
  readonly reason?: TemplateExitReason;
}

interface GoldenCase {
  readonly name: string;
  readonly template?: string;
  readonly params?: readonly SuppliedParameter[];
  readonly capital: number;
  readonly costs?: Partial<Costs>;
  readonly sizing?: Sizing;
  readonly exits?: Partial<Exits>;
  readonly bars: readonly Row[];
  readonly fills: readonly Fill[];
  readonly equity: readonly number[];
  readonly paid: { readonly commission: number; readonly slippage: number };
}

// SMA(2) vs SMA(5), as engine.golden.test.ts: ENTER on t5's close (fill t6 open 13), EXIT on t8's close (fill t9 open 10).
const CROSSOVER: readonly Row[] = [
  flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 10), flat('2024-01-03', 10, 10), flat('2024-01-04', 10, 10),
  flat('2024-01-05', 10, 10), flat('2024-01-06', 10, 12), flat('2024-01-07', 13, 14), flat('2024-01-08', 14, 13),
  flat('2024-01-09', 13, 9), flat('2024-01-10', 10, 8), flat('2024-01-11', 8, 8), flat('2024-01-12', 8, 8),
];
const SMA_2_5 = [{ name: 'fast_period', value: 2 }, { name: 'slow_period', value: 5 }];

const CASES: readonly GoldenCase[] = [
  {
    name: 'slippage capped at the high on the buy, the sale at the end floored at the low',
    capital: 1000, costs: { slippage_bps: 100 },
    bars: [['2024-01-01', 10, 10, 10, 10], ['2024-01-02', 10, 10.05, 9.9, 10.5], ['2024-01-03', 10.5, 11, 10.95, 11]],
    // Buy at min(high 10.05, 10 × 1.01 = 10.1) = 10.05; q = floor(1000 / 10.05 = 99.5) = 99, cash 1000 − 994.95 = 5.05.
    // The end: max(low 10.95, close 11 × 0.99 = 10.89) = 10.95; cash 5.05 + 99 × 10.95 = 1089.10.
    // pnl 99 × 10.95 − 99 × 10.05 = 89.10; return 10.95 / 10.05 − 1 (no commission). Slippage 99 × 0.05 twice = 9.90.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10.05, shares: 99, commission: 0 },
      { type: 'SELL', date: '2024-01-03', price: 10.95, shares: 99, commission: 0, pnl: 89.1, return: 10.95 / 10.05 - 1, reason: 'end_of_period' },
    ],
    equity: [1000, 5.05 + 99 * 10.5, 1089.1],
    paid: { commission: 0, slippage: 9.9 },
  },
  {
    name: 'slippage within the bar: the buy above the open, the sale at the end below the close',
    capital: 1000, costs: { slippage_bps: 50 },
    bars: [['2024-01-01', 10, 10, 10, 10], ['2024-01-02', 10, 10.5, 9.5, 10], ['2024-01-03', 10, 12.5, 11.5, 12]],
    // Buy at 10 × 1.005 = 10.05 (below the high 10.5): 99 shares, cash 5.05. End: 12 × 0.995 = 11.94 (above the low 11.5).
    // Cash 5.05 + 99 × 11.94 = 1187.11. pnl 99 × (11.94 − 10.05) = 187.11. Slippage 99 × 0.05 + 99 × 0.06 = 10.89.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10.05, shares: 99, commission: 0 },
      { type: 'SELL', date: '2024-01-03', price: 11.94, shares: 99, commission: 0, pnl: 187.11, return: 11.94 / 10.05 - 1, reason: 'end_of_period' },
    ],
    equity: [1000, 5.05 + 990, 1187.11],
    paid: { commission: 0, slippage: 10.89 },
  },
  {
    name: 'a commission minimum makes the all-in buy unaffordable: q reduced by one',
    capital: 1000, costs: { commission_per_share: 0.01, commission_min: 5 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 11), flat('2024-01-03', 11, 12)],
    // 100 shares would cost 1000 + max(5, 1.00) = 1005 > 1000; 99 cost 990 + max(5, 0.99) = 995: cash 5.
    // The end at 12: 99 × 12 − 5 = 1183, cash 1188. pnl 1188 − 990 − 10 = 99 × 12 − 99 × 10 − 10 = 188;
    // return 188 / (990 + 5). Commissions 5 + 5.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 99, commission: 5 },
      { type: 'SELL', date: '2024-01-03', price: 12, shares: 99, commission: 5, pnl: 188, return: 188 / 995, reason: 'end_of_period' },
    ],
    equity: [1000, 5 + 99 * 11, 1188],
    paid: { commission: 10, slippage: 0 },
  },
  {
    name: 'a percent commission above the minimum, on each fill\'s own value',
    capital: 1000, costs: { commission_pct: 0.001, commission_min: 0.5 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 10), flat('2024-01-03', 20, 20)],
    // 99 shares: 990 + max(0.5, 0.99) = 990.99 ≤ 1000 (100 would be 1000 + 1 = 1001); cash 9.01.
    // The end at 20: commission max(0.5, 0.001 × 1980 = 1.98); cash 9.01 + 1980 − 1.98 = 1987.03.
    // pnl 1980 − 990 − 2.97 = 987.03; return 987.03 / 990.99.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 99, commission: 0.99 },
      { type: 'SELL', date: '2024-01-03', price: 20, shares: 99, commission: 1.98, pnl: 987.03, return: 987.03 / 990.99, reason: 'end_of_period' },
    ],
    equity: [1000, 9.01 + 990, 1987.03],
    paid: { commission: 2.97, slippage: 0 },
  },
  {
    name: 'fixed_shares more than the cash affords: as many as it does',
    capital: 1000, sizing: { mode: 'fixed_shares', value: 500 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 11)],
    // 500 × 10 > 1000: floor(1000 / 10) = 100 shares, cash 0; the end at 11: 1100.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 100, commission: 0 },
      { type: 'SELL', date: '2024-01-02', price: 11, shares: 100, commission: 0, pnl: 100, return: 0.1, reason: 'end_of_period' },
    ],
    equity: [1000, 1100],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'fixed_shares within the cash: exactly that many',
    capital: 1000, sizing: { mode: 'fixed_shares', value: 30 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 11)],
    // 30 × 10 = 300, cash 700; the end at 11: 700 + 330 = 1030.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 30, commission: 0 },
      { type: 'SELL', date: '2024-01-02', price: 11, shares: 30, commission: 0, pnl: 30, return: 0.1, reason: 'end_of_period' },
    ],
    equity: [1000, 1030],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'fixed_amount with a commission: the budget covers price and commission',
    capital: 1000, sizing: { mode: 'fixed_amount', value: 335 }, costs: { commission_min: 5 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 10)],
    // 33 × 10 + 5 = 335 ≤ 335; cash 665. The end at 10: 665 + 330 − 5 = 990. pnl 330 − 330 − 10 = −10, return −10 / 335.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 33, commission: 5 },
      { type: 'SELL', date: '2024-01-02', price: 10, shares: 33, commission: 5, pnl: -10, return: -10 / 335, reason: 'end_of_period' },
    ],
    equity: [1000, 990],
    paid: { commission: 10, slippage: 0 },
  },
  {
    name: 'percent_of_equity: value × the equity at the signal\'s close',
    template: 'sma_crossover', params: SMA_2_5, capital: 1000, sizing: { mode: 'percent_of_equity', value: 0.5 },
    bars: CROSSOVER,
    // Flat at t5's close: equity 1000, budget 500; at t6's open 13: floor(500 / 13) = 38 shares (494), cash 506.
    // Sold at t9's open 10: 506 + 380 = 886. pnl 380 − 494 = −114, return 10 / 13 − 1.
    fills: [
      { type: 'BUY', date: '2024-01-07', price: 13, shares: 38, commission: 0 },
      { type: 'SELL', date: '2024-01-10', price: 10, shares: 38, commission: 0, pnl: -114, return: 10 / 13 - 1, reason: 'signal' },
    ],
    equity: [1000, 1000, 1000, 1000, 1000, 1000, 506 + 38 * 14, 506 + 38 * 13, 506 + 38 * 9, 886, 886, 886],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'a stop loss on the same close as the exit signal: the stop is the reason, the sale at the next open capped at its low',
    template: 'sma_crossover', params: SMA_2_5, capital: 1000, exits: { stop_loss_pct: -0.25 }, costs: { slippage_bps: 1000 },
    bars: [...CROSSOVER.slice(0, 9), ['2024-01-10', 10, 10, 9.5, 8], ...CROSSOVER.slice(10)],
    // Buy at t6: min(high 14, 13 × 1.1 = 14.3) = 14, floor(1000 / 14) = 71 shares (994), cash 6. Level 14 × 0.75 = 10.5;
    // t8's close 9 ≤ 10.5 (and the signal too): stop_loss, at t9's open: max(low 9.5, 10 × 0.9 = 9) = 9.5.
    // Cash 6 + 71 × 9.5 = 680.5. pnl 71 × 9.5 − 71 × 14 = −319.5. Slippage 71 × 1 + 71 × 0.5 = 106.5.
    fills: [
      { type: 'BUY', date: '2024-01-07', price: 14, shares: 71, commission: 0 },
      { type: 'SELL', date: '2024-01-10', price: 9.5, shares: 71, commission: 0, pnl: -319.5, return: 9.5 / 14 - 1, reason: 'stop_loss' },
    ],
    equity: [1000, 1000, 1000, 1000, 1000, 1000, 6 + 71 * 14, 6 + 71 * 13, 6 + 71 * 9, 680.5, 680.5, 680.5],
    paid: { commission: 0, slippage: 106.5 },
  },
  {
    name: 'a stop loss checked from the entry bar\'s own close',
    capital: 1000, exits: { stop_loss_pct: -0.1 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 9), flat('2024-01-03', 8.5, 8), flat('2024-01-04', 8, 8)],
    // Buy 100 at 10; the entry bar closes at 9 ≤ 10 × 0.9 = 9: sold at t2's open 8.5. Flat after: 850.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 100, commission: 0 },
      { type: 'SELL', date: '2024-01-03', price: 8.5, shares: 100, commission: 0, pnl: -150, return: -0.15, reason: 'stop_loss' },
    ],
    equity: [1000, 900, 850, 850],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'a trailing stop that ratchets up with the highest close, and a stop that holds with it on one close wins',
    capital: 1000, exits: { trailing_stop_pct: 0.1 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 10), flat('2024-01-03', 10, 12), flat('2024-01-04', 12, 13),
      flat('2024-01-05', 13, 12), flat('2024-01-06', 12, 11.7), flat('2024-01-07', 11.5, 11)],
    // Levels: 9 (highest 10), 10.8 (12), 11.7 (13); 12 > 11.7 holds; 11.7 ≤ 13 × 0.9 → trailing_stop, sold at 11.5.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 100, commission: 0 },
      { type: 'SELL', date: '2024-01-07', price: 11.5, shares: 100, commission: 0, pnl: 150, return: 0.15, reason: 'trailing_stop' },
    ],
    equity: [1000, 1000, 1200, 1300, 1200, 1170, 1150],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'stop loss before trailing stop when both hold on a close',
    capital: 1000, exits: { stop_loss_pct: -0.05, trailing_stop_pct: 0.02 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 10.2), flat('2024-01-03', 10, 9.4), flat('2024-01-04', 9.3, 9.3)],
    // t2's close 9.4 ≤ 10 × 0.95 (stop) and ≤ 10.2 × 0.98 (trailing): stop_loss, sold at 9.3.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 100, commission: 0 },
      { type: 'SELL', date: '2024-01-04', price: 9.3, shares: 100, commission: 0, pnl: -70, return: 9.3 / 10 - 1, reason: 'stop_loss' },
    ],
    equity: [1000, 1020, 940, 930],
    paid: { commission: 0, slippage: 0 },
  },
  {
    name: 'a take profit at exactly its level (compared as prices), before the template\'s exit signal',
    capital: 1000, exits: { take_profit_pct: 0.2, trailing_stop_pct: 0.5 },
    bars: [flat('2024-01-01', 10, 10), flat('2024-01-02', 10, 11), flat('2024-01-03', 11, 12), flat('2024-01-04', 12.5, 13)],
    // 12 ≥ 10 × 1.2 = 12 (12 / 10 − 1 = 0.19999999999999996 would miss it): take_profit, sold at 12.5.
    fills: [
      { type: 'BUY', date: '2024-01-02', price: 10, shares: 100, commission: 0 },
      { type: 'SELL', date: '2024-01-04', price: 12.5, shares: 100, commission: 0, pnl: 250, return: 0.25, reason: 'take_profit' },
    ],
    equity: [1000, 1100, 1200, 1250],
    paid: { commission: 0, slippage: 0 },
  },
];

function settings(golden: GoldenCase): ExecutionSettings {
  return {
    costs: { ...NO_COSTS, ...golden.costs },
    sizing: golden.sizing ?? FRICTIONLESS.sizing,
    exits: { ...NO_EXITS, ...golden.exits },
  };
}

function expectClose(actual: number | null | undefined, expected: number, what: string): void {
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

describe('golden execution: costs, sizing and exits on template backtests', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, golden) => {
    const template = findTemplate(golden.template ?? 'buy_and_hold')!;
    const params = resolveTemplateParameters(template, golden.params ?? []);
    const series = bars(golden.bars);
    const execution = settings(golden);
    const runs = [runTemplateBacktest(series, template, params, golden.capital, execution), genericTemplateRun(series, template.id, params, golden.capital, new ExecutionModel(execution))];
    for (const run of runs) {
      expect(run.trades.length).toBe(golden.fills.length);
      run.trades.forEach((trade, i) => {
        const fill = golden.fills[i]!;
        expect([trade.type, trade.date, trade.shares, trade.exit_reason]).toEqual([fill.type, `${fill.date}T00:00:00.000Z`, fill.shares, fill.reason]);
        expectClose(trade.price, fill.price, `trade ${i} price`);
        expectClose(trade.commission, fill.commission, `trade ${i} commission`);
        if (fill.pnl !== undefined) expectClose(trade.pnl, fill.pnl, `trade ${i} pnl`);
        if (fill.return !== undefined) expectClose(trade.return, fill.return, `trade ${i} return`);
      });
      expect(run.equity.length).toBe(golden.equity.length);
      golden.equity.forEach((value, t) => expectClose(run.equity[t], value, `equity[${t}]`));
      expectClose(run.metrics.final_capital, golden.equity.at(-1)!, 'final_capital');
      expectClose(run.costs_paid.commission, golden.paid.commission, 'costs_paid.commission');
      expectClose(run.costs_paid.slippage, golden.paid.slippage, 'costs_paid.slippage');
    }
    // The final capital is the capital plus every round trip's pnl: the costs are in both.
    const pnl = runs[0]!.trades.reduce((sum, t) => sum + (t.pnl ?? 0), 0);
    expectClose(runs[0]!.metrics.final_capital, golden.capital + pnl, 'capital + Σ pnl');
  });
});
