/**
 * Golden cases of the library replay: tiny hand-written bars and signal strings with the expected trades, equity
 * curve, drawdowns and every statistic worked out by hand beside them. Conventions under test (docs/backtesting.md
 * "Library backtest"): a signal on bar t's close fills at bar t + 1's open; exits checked on each close from the
 * entry bar's on (stop loss, profit target, exit_rule) and filled at the next open; an open position is closed at its
 * symbol's last close (end_of_period); qty = floor(min(max position size, free cash) / open); one shared cash, exits
 * before entries on a date, symbols sorted. Bars: [date, open, close]; signals: '0'/'1' per bar.
 */
import { describe, expect, it } from 'vitest';
import { goldenSeries as series, type GoldenBar } from '../../../test/fixtures/bar-series.js';
import { replayStrategy } from './replay.js';
import type { ExitReason, LibraryStats, LibraryTrade, PositionSide, ReplayStrategy } from './types.js';

type Bar = GoldenBar;

interface GoldenSymbol {
  readonly symbol: string;
  readonly bars: readonly Bar[];
  /** Omitted: no entry_rule (enter on the first bar's signal, once). */
  readonly entry?: string;
  readonly exit?: string;
}

interface GoldenCase {
  readonly name: string;
  readonly strategy?: Partial<ReplayStrategy>;
  readonly capital: number;
  readonly symbols: readonly GoldenSymbol[];
  readonly trades: readonly LibraryTrade[];
  readonly dates?: readonly string[];
  readonly equity: readonly number[];
  readonly drawdowns: readonly number[];
  readonly stats: LibraryStats;
}

const signals = (text: string): Uint8Array => Uint8Array.from(text, (c) => (c === '1' ? 1 : 0));

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Sample Sharpe of hand-listed daily returns: mean / stdev(n − 1) × √252. */
const sharpe = (rs: readonly number[]) =>
  (mean(rs) / Math.sqrt(rs.reduce((a, r) => a + (r - mean(rs)) ** 2, 0) / (rs.length - 1))) * Math.sqrt(252);
/** Sortino of hand-listed daily returns: mean / sqrt(Σ min(r, 0)² / (n − 1)) × √252. */
const sortino = (rs: readonly number[]) =>
  (mean(rs) / Math.sqrt(rs.reduce((a, r) => a + Math.min(r, 0) ** 2, 0) / (rs.length - 1))) * Math.sqrt(252);

const trade = (
  symbol: string, side: PositionSide, entry_date: string, entry_price: number, exit_date: string, exit_price: number,
  qty: number, pnl: number, ret: number, exit_reason: ExitReason,
): LibraryTrade => ({ symbol, side, entry_date, entry_price, exit_date, exit_price, qty, pnl, return: ret, exit_reason, commission: 0 });

const NO_TRADE_STATS = {
  win_rate: null, profit_factor: null, total_trades: 0, winning_trades: 0, losing_trades: 0,
  avg_profit: null, avg_loss: null, avg_holding_days: null,
} as const;

const CASES: readonly GoldenCase[] = [
  {
    name: 'profit target hit: +30 % on a close ≥ the 20 % target, sold at the next open; no re-entry without entry_rule',
    strategy: { profitTargetPct: 0.2 }, capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 11, 13], ['2024-01-04', 12.5, 14], ['2024-01-05', 14, 15]] }],
    // No entry_rule: bar 0's close signals, filled at open[1] = 10: floor(1000 / 10) = 100, cash 0.
    // t1 close 11: 11/10 − 1 = 0.1 < 0.2. t2 close 13: 0.3 ≥ 0.2 → profit_target, sold at open[3] = 12.5: cash 1250.
    // pnl 100 × 2.5 = 250, return 0.25, 2024-01-02 → 2024-01-04 = 2 days. Flat after: entry is once per period.
    trades: [trade('AAA', 'long', '2024-01-02', 10, '2024-01-04', 12.5, 100, 250, 0.25, 'profit_target')],
    equity: [1000, 1100, 1300, 1250, 1250],
    drawdowns: [0, 0, 0, 1250 / 1300 - 1, 1250 / 1300 - 1],
    stats: {
      total_return: 0.25, annualized_return: Math.pow(1.25, 365.25 / 4) - 1,
      sharpe_ratio: sharpe([0.1, 1300 / 1100 - 1, 1250 / 1300 - 1, 0]), sortino_ratio: sortino([0.1, 1300 / 1100 - 1, 1250 / 1300 - 1, 0]),
      max_drawdown: 1250 / 1300 - 1, win_rate: 1, profit_factor: null, total_trades: 1, winning_trades: 1, losing_trades: 0,
      avg_profit: 250, avg_loss: null, avg_holding_days: 2,
      exposure: 2 / 5, // held on the closes of t1, t2
    },
  },
  {
    name: 'stop loss hit: −15 % on a close ≤ the −10 % stop, ahead of an exit_rule signal on the same close',
    strategy: { stopLossPct: -0.1 }, capital: 1000,
    symbols: [{
      symbol: 'AAA',
      bars: [['2024-01-01', 20, 20], ['2024-01-02', 20, 20], ['2024-01-03', 20, 19], ['2024-01-04', 19, 17], ['2024-01-05', 16, 18], ['2024-01-08', 18, 18]],
      entry: '011000', exit: '000100',
    }],
    // t1 entry signal → BUY open[2] = 20: 50 shares, cash 0. t2's entry signal is ignored while long.
    // t2 close 19: −0.05 > −0.1. t3 close 17: 17/20 − 1 = −0.15 ≤ −0.1 → stop_loss (checked before exit_rule).
    // Sold at open[4] = 16: cash 800, pnl 50 × (16 − 20) = −200, return −0.2, 01-03 → 01-05 = 2 days.
    trades: [trade('AAA', 'long', '2024-01-03', 20, '2024-01-05', 16, 50, -200, -0.2, 'stop_loss')],
    equity: [1000, 1000, 950, 850, 800, 800],
    drawdowns: [0, 0, -0.05, -0.15, -0.2, -0.2],
    stats: {
      total_return: -0.2, annualized_return: Math.pow(0.8, 365.25 / 7) - 1,
      sharpe_ratio: sharpe([0, -0.05, 850 / 950 - 1, 800 / 850 - 1, 0]), sortino_ratio: sortino([0, -0.05, 850 / 950 - 1, 800 / 850 - 1, 0]),
      max_drawdown: -0.2, win_rate: 0, profit_factor: 0, total_trades: 1, winning_trades: 0, losing_trades: 1,
      avg_profit: null, avg_loss: -200, avg_holding_days: 2, exposure: 2 / 6,
    },
  },
  {
    name: 'exit rule: an exit signal on the entry bar\'s own close, then a re-entry on the entry rule, closed at the end',
    capital: 1000,
    symbols: [{
      symbol: 'AAA',
      bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 12, 12], ['2024-01-04', 15, 16], ['2024-01-05', 16, 14]],
      entry: '10100', exit: '01000',
    }],
    // t0 entry → BUY open[1] = 10: 100 shares, cash 0. t1 (the fill bar) exit signal → SELL open[2] = 12: cash 1200,
    // pnl 200, return 0.2, 1 day. t2 entry (flat again) → BUY open[3] = 15: floor(1200 / 15) = 80, cash 0.
    // End: SELL at close[4] = 14: pnl 80 × (14 − 15) = −80, return 14/15 − 1, 1 day.
    trades: [
      trade('AAA', 'long', '2024-01-02', 10, '2024-01-03', 12, 100, 200, 0.2, 'exit_rule'),
      trade('AAA', 'long', '2024-01-04', 15, '2024-01-05', 14, 80, -80, 14 / 15 - 1, 'end_of_period'),
    ],
    equity: [1000, 1100, 1200, 1280, 1120],
    drawdowns: [0, 0, 0, 0, 1120 / 1280 - 1],
    stats: {
      total_return: 0.12, annualized_return: Math.pow(1.12, 365.25 / 4) - 1,
      sharpe_ratio: sharpe([0.1, 1200 / 1100 - 1, 1280 / 1200 - 1, 1120 / 1280 - 1]),
      sortino_ratio: sortino([0.1, 1200 / 1100 - 1, 1280 / 1200 - 1, 1120 / 1280 - 1]),
      max_drawdown: -0.125, win_rate: 0.5, profit_factor: 200 / 80, total_trades: 2, winning_trades: 1, losing_trades: 1,
      avg_profit: 200, avg_loss: -80, avg_holding_days: 1,
      exposure: 3 / 5, // t1, t3, t4 (t2: sold at the open, bought again only at t3's open)
    },
  },
  {
    name: 'end of period: held to the last close; an exit signal on the last bar cannot fill and changes nothing',
    strategy: { profitTargetPct: 0.15 }, capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 9], ['2024-01-03', 9, 11], ['2024-01-04', 11, 12]], exit: '0001' }],
    // BUY open[1] = 10: 100 shares. t2 close 11: 0.1 < 0.15. t3 (last) close 12: 0.2 ≥ 0.15 and an exit signal, but
    // there is no next open: sold at close[3] = 12, end_of_period. pnl 200, return 0.2, 01-02 → 01-04 = 2 days.
    trades: [trade('AAA', 'long', '2024-01-02', 10, '2024-01-04', 12, 100, 200, 0.2, 'end_of_period')],
    equity: [1000, 900, 1100, 1200],
    drawdowns: [0, -0.1, 0, 0],
    stats: {
      total_return: 0.2, annualized_return: Math.pow(1.2, 365.25 / 3) - 1,
      sharpe_ratio: sharpe([-0.1, 1100 / 900 - 1, 1200 / 1100 - 1]), sortino_ratio: sortino([-0.1, 1100 / 900 - 1, 1200 / 1100 - 1]),
      max_drawdown: -0.1, win_rate: 1, profit_factor: null, total_trades: 1, winning_trades: 1, losing_trades: 0,
      avg_profit: 200, avg_loss: null, avg_holding_days: 2, exposure: 3 / 4,
    },
  },
  {
    name: 'two symbols sharing cash: the second is sized by what the first left; a missing bar is marked at the last close',
    strategy: { maxPositionSize: 600 }, capital: 1000,
    symbols: [
      // Given out of order: the replay sorts the symbols (AAA before BBB).
      { symbol: 'BBB', bars: [['2024-01-01', 20, 20], ['2024-01-02', 20, 21], ['2024-01-04', 22, 24]] },
      { symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 11, 12], ['2024-01-04', 12, 13]] },
    ],
    // 01-02: AAA first: floor(min(600, 1000) / 10) = 60 (600), cash 400; BBB: floor(min(600, 400) / 20) = 20 (400), cash 0.
    // Equity 01-02: 60·11 + 20·21 = 1080; 01-03 (BBB has no bar, marked at 21): 60·12 + 420 = 1140; 01-04: 780 + 480 = 1260.
    // End: AAA at 13: pnl 180, return 0.3; BBB at 24: pnl 80, return 0.2; both 01-02 → 01-04 = 2 days.
    trades: [
      trade('AAA', 'long', '2024-01-02', 10, '2024-01-04', 13, 60, 180, 0.3, 'end_of_period'),
      trade('BBB', 'long', '2024-01-02', 20, '2024-01-04', 24, 20, 80, 0.2, 'end_of_period'),
    ],
    dates: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'],
    equity: [1000, 1080, 1140, 1260],
    drawdowns: [0, 0, 0, 0],
    stats: {
      total_return: 0.26, annualized_return: Math.pow(1.26, 365.25 / 3) - 1,
      sharpe_ratio: sharpe([0.08, 1140 / 1080 - 1, 1260 / 1140 - 1]), sortino_ratio: null, // no losing day
      max_drawdown: 0, win_rate: 1, profit_factor: null, total_trades: 2, winning_trades: 2, losing_trades: 0,
      avg_profit: 130, avg_loss: null, avg_holding_days: 2, exposure: 3 / 4,
    },
  },
  {
    name: 'exits before entries on one date: BBB\'s exit frees the cash AAA (sorted first) enters with',
    capital: 1000,
    symbols: [
      { symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 10, 10], ['2024-01-04', 10, 10]], entry: '0100' },
      { symbol: 'BBB', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 12, 12], ['2024-01-04', 12, 12]], entry: '1000', exit: '0100' },
    ],
    // 01-02: BBB BUY 100 at 10, cash 0. Its close: BBB exit signal, AAA entry signal.
    // 01-03: BBB SELL 100 at 12 first (cash 1200, pnl 200), then AAA BUY floor(1200 / 10) = 120, cash 0.
    // 01-04: AAA closed at 10, break-even (neither a win nor a loss).
    trades: [
      trade('BBB', 'long', '2024-01-02', 10, '2024-01-03', 12, 100, 200, 0.2, 'exit_rule'),
      trade('AAA', 'long', '2024-01-03', 10, '2024-01-04', 10, 120, 0, 0, 'end_of_period'),
    ],
    equity: [1000, 1000, 1200, 1200],
    drawdowns: [0, 0, 0, 0],
    stats: {
      total_return: 0.2, annualized_return: Math.pow(1.2, 365.25 / 3) - 1,
      sharpe_ratio: sharpe([0, 0.2, 0]), sortino_ratio: null,
      max_drawdown: 0, win_rate: 0.5, profit_factor: null, total_trades: 2, winning_trades: 1, losing_trades: 0,
      avg_profit: 200, avg_loss: null, avg_holding_days: 1, exposure: 3 / 4,
    },
  },
  {
    name: 'a short position: proceeds credited, equity = cash − qty × close, profit target on (entry − close) / entry',
    strategy: { side: 'short', profitTargetPct: 0.1 }, capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 50, 50], ['2024-01-02', 50, 48], ['2024-01-03', 47, 44], ['2024-01-04', 45, 46], ['2024-01-05', 46, 40]] }],
    // SHORT open[1] = 50: floor(1000 / 50) = 20, cash 1000 + 1000 = 2000. t1: (50 − 48)/50 = 0.04; equity 2000 − 960.
    // t2: (50 − 44)/50 = 0.12 ≥ 0.1 → profit_target; equity 2000 − 880. Covered at open[3] = 45: cash 2000 − 900 = 1100.
    // pnl 20 × (50 − 45) = 100, return 5/50 = 0.1, 2 days.
    trades: [trade('AAA', 'short', '2024-01-02', 50, '2024-01-04', 45, 20, 100, 0.1, 'profit_target')],
    equity: [1000, 1040, 1120, 1100, 1100],
    drawdowns: [0, 0, 0, 1100 / 1120 - 1, 1100 / 1120 - 1],
    stats: {
      total_return: 0.1, annualized_return: Math.pow(1.1, 365.25 / 4) - 1,
      sharpe_ratio: sharpe([0.04, 1120 / 1040 - 1, 1100 / 1120 - 1, 0]), sortino_ratio: sortino([0.04, 1120 / 1040 - 1, 1100 / 1120 - 1, 0]),
      max_drawdown: 1100 / 1120 - 1, win_rate: 1, profit_factor: null, total_trades: 1, winning_trades: 1, losing_trades: 0,
      avg_profit: 100, avg_loss: null, avg_holding_days: 2, exposure: 2 / 5,
    },
  },
  {
    name: 'a short stopped out: a rise of 15 % from the entry price is a −0.15 return ≤ the −10 % stop',
    strategy: { side: 'short', stopLossPct: -0.1 }, capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10.5], ['2024-01-03', 10.5, 11.5], ['2024-01-04', 12, 12]] }],
    // SHORT 100 at 10, cash 2000. t1: (10 − 10.5)/10 = −0.05, equity 950. t2: −0.15 → stop_loss, equity 850.
    // Covered at open[3] = 12: cash 800, pnl 100 × (10 − 12) = −200, return −0.2.
    trades: [trade('AAA', 'short', '2024-01-02', 10, '2024-01-04', 12, 100, -200, -0.2, 'stop_loss')],
    equity: [1000, 950, 850, 800],
    drawdowns: [0, -0.05, -0.15, -0.2],
    stats: {
      total_return: -0.2, annualized_return: Math.pow(0.8, 365.25 / 3) - 1,
      sharpe_ratio: sharpe([-0.05, 850 / 950 - 1, 800 / 850 - 1]), sortino_ratio: sortino([-0.05, 850 / 950 - 1, 800 / 850 - 1]),
      max_drawdown: -0.2, win_rate: 0, profit_factor: 0, total_trades: 1, winning_trades: 0, losing_trades: 1,
      avg_profit: null, avg_loss: -200, avg_holding_days: 2, exposure: 2 / 4,
    },
  },
  {
    name: 'a close exactly at the target price is a hit: 20 % from 10 is 12, though 12 / 10 − 1 is 0.19999999999999996',
    strategy: { profitTargetPct: 0.2 }, capital: 100,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 11, 12], ['2024-01-04', 12.5, 13]] }],
    // BUY 10 at 10, cash 0. Close 11 < 12; close 12 ≥ 10 × 1.2 = 12 → profit_target, sold at open[3] = 12.5: cash 125.
    trades: [trade('AAA', 'long', '2024-01-02', 10, '2024-01-04', 12.5, 10, 25, 0.25, 'profit_target')],
    equity: [100, 110, 120, 125],
    drawdowns: [0, 0, 0, 0],
    stats: {
      total_return: 0.25, annualized_return: Math.pow(1.25, 365.25 / 3) - 1,
      sharpe_ratio: sharpe([0.1, 120 / 110 - 1, 125 / 120 - 1]), sortino_ratio: null,
      max_drawdown: 0, win_rate: 1, profit_factor: null, total_trades: 1, winning_trades: 1, losing_trades: 0,
      avg_profit: 25, avg_loss: null, avg_holding_days: 2, exposure: 2 / 4,
    },
  },
  {
    name: 'shorts on three symbols: each open short holds its proceeds and as much again, so the third gets what is left',
    strategy: { side: 'short', maxPositionSize: 400 }, capital: 1000,
    symbols: ['AAA', 'BBB', 'CCC'].map((symbol) => ({ symbol, bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 10], ['2024-01-03', 10, 10]] as const })),
    // At open[1] = 10, symbols in order. AAA: free 1000, min(400, 1000) → 40 short, cash 1400.
    // BBB: free 1400 − 2 × 400 = 600 → 40 short, cash 1800. CCC: free 1800 − 2 × 800 = 200 → 20 short, cash 2000.
    // Equity 2000 − 100 × 10 = 1000 throughout; all covered at the last close, 10: pnl 0.
    trades: [
      trade('AAA', 'short', '2024-01-02', 10, '2024-01-03', 10, 40, 0, 0, 'end_of_period'),
      trade('BBB', 'short', '2024-01-02', 10, '2024-01-03', 10, 40, 0, 0, 'end_of_period'),
      trade('CCC', 'short', '2024-01-02', 10, '2024-01-03', 10, 20, 0, 0, 'end_of_period'),
    ],
    equity: [1000, 1000, 1000],
    drawdowns: [0, 0, 0],
    stats: {
      total_return: 0, annualized_return: 0, sharpe_ratio: null, sortino_ratio: null, max_drawdown: 0,
      win_rate: 0, profit_factor: null, total_trades: 3, winning_trades: 0, losing_trades: 0,
      avg_profit: null, avg_loss: null, avg_holding_days: 1, exposure: 2 / 3,
    },
  },
  {
    name: 'position-size cap: entry_max_position_size 250 buys floor(250 / 12) = 20 shares, the rest stays cash',
    strategy: { maxPositionSize: 250 }, capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 12, 13], ['2024-01-03', 13, 11]] }],
    // BUY 20 at 12 (240), cash 760: equity 760 + 260 = 1020, then 760 + 220 = 980. End: pnl 20 × (11 − 12) = −20.
    trades: [trade('AAA', 'long', '2024-01-02', 12, '2024-01-03', 11, 20, -20, 11 / 12 - 1, 'end_of_period')],
    equity: [1000, 1020, 980],
    drawdowns: [0, 0, 980 / 1020 - 1],
    stats: {
      total_return: -0.02, annualized_return: Math.pow(0.98, 365.25 / 2) - 1,
      sharpe_ratio: sharpe([0.02, 980 / 1020 - 1]), sortino_ratio: sortino([0.02, 980 / 1020 - 1]),
      max_drawdown: 980 / 1020 - 1, win_rate: 0, profit_factor: 0, total_trades: 1, winning_trades: 0, losing_trades: 1,
      avg_profit: null, avg_loss: -20, avg_holding_days: 1, exposure: 2 / 3,
    },
  },
  {
    name: 'a signal on the last bar never fills: no trade',
    capital: 1000,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 11, 12]], entry: '001' }],
    trades: [], equity: [1000, 1000, 1000], drawdowns: [0, 0, 0],
    stats: { total_return: 0, annualized_return: 0, sharpe_ratio: null, sortino_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS, exposure: 0 },
  },
  {
    name: 'cash below one share: the entry is skipped (floor(5 / 10) = 0), and without entry_rule never retried',
    capital: 5,
    symbols: [{ symbol: 'AAA', bars: [['2024-01-01', 10, 10], ['2024-01-02', 10, 11], ['2024-01-03', 4, 4], ['2024-01-04', 4, 5]] }],
    trades: [], equity: [5, 5, 5, 5], drawdowns: [0, 0, 0, 0],
    stats: { total_return: 0, annualized_return: 0, sharpe_ratio: null, sortino_ratio: null, max_drawdown: 0, ...NO_TRADE_STATS, exposure: 0 },
  },
];

function expectClose(actual: number | null | undefined, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

const LONG: ReplayStrategy = { side: 'long', maxPositionSize: null, profitTargetPct: null, stopLossPct: null, trailingStopPct: null };

describe('golden library replays', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, golden) => {
    const inputs = golden.symbols.map((s) => ({
      symbol: s.symbol,
      bars: series(s.bars),
      entry: s.entry === undefined ? null : signals(s.entry),
      exit: s.exit === undefined ? null : signals(s.exit),
    }));
    const result = replayStrategy(inputs, { ...LONG, ...golden.strategy }, golden.capital);

    expect(result.symbols).toEqual(golden.symbols.map((s) => s.symbol).sort());
    if (golden.dates) expect(result.dates).toEqual(golden.dates);
    expect(result.start_date).toBe(result.dates[0]);
    expect(result.end_date).toBe(result.dates.at(-1));
    expect(result.trades.length).toBe(golden.trades.length);
    result.trades.forEach((actual, i) => {
      const expected = golden.trades[i]!;
      const { pnl, return: ret, entry_price, exit_price, ...exact } = expected;
      expect(actual).toMatchObject(exact);
      expectClose(actual.pnl, pnl, `trade ${i} pnl`);
      expectClose(actual.return, ret, `trade ${i} return`);
      expectClose(actual.entry_price, entry_price, `trade ${i} entry_price`);
      expectClose(actual.exit_price, exit_price, `trade ${i} exit_price`);
    });
    expect(result.equity_curve.length).toBe(golden.equity.length);
    golden.equity.forEach((value, t) => expectClose(result.equity_curve[t], value, `equity[${t}]`));
    golden.drawdowns.forEach((value, t) => expectClose(result.drawdowns[t], value, `drawdowns[${t}]`));
    expectClose(result.final_capital, golden.equity.at(-1)!, 'final_capital');
    expect(result.starting_capital).toBe(golden.capital);
    expect(Object.keys(result.stats)).toEqual(Object.keys(golden.stats));
    for (const key of Object.keys(golden.stats) as (keyof LibraryStats)[]) expectClose(result.stats[key], golden.stats[key], key);
  });
});
