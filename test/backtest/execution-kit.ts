/**
 * The bars and requests the execution-settings HTTP tests share (issue 25): a hand-made symbol and two benchmarks.
 */
import type { Db } from '../../src/platform/db/database.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import type { ManualClock } from '../helpers/clock.js';

export type Row = readonly [date: string, open: number, high: number, low: number, close: number];
export const bars = (rows: readonly Row[]) => rows.map(([date, open, high, low, close]) => ({ date, open, high, low, close, volume: 1000 }));

// HND: buy_and_hold signals on 01-02's close, fills at 01-03's open, and is sold at 01-05's close (end of period).
export const HND: readonly Row[] = [
  ['2024-01-02', 99, 101, 98, 100],
  ['2024-01-03', 100, 102, 99, 101],
  ['2024-01-04', 101, 105, 100, 104],
  ['2024-01-05', 104, 106, 103, 105],
];
// HNB: a benchmark with a bar before the backtest (unused), none on 01-04 (01-03's close carries).
export const HNB: readonly Row[] = [
  ['2023-12-29', 40, 40, 40, 40],
  ['2024-01-02', 50, 50, 50, 50],
  ['2024-01-03', 55, 55, 55, 55],
  ['2024-01-05', 60, 60, 60, 60],
];
// HNC: starts after the backtest's first date.
export const HNC: readonly Row[] = [['2024-01-03', 10, 10, 10, 10], ['2024-01-05', 11, 11, 11, 11]];

export const HAND = { symbol: 'HND', strategy: 'buy_and_hold', start_date: '2024-01-01', end_date: '2024-01-31', initial_capital: 10000 };
/** 1 ¢ a share plus 0.1 % of the value, at least $1 an order; 20 bp of slippage. */
export const COSTS = { commission_per_share: 0.01, commission_pct: 0.001, commission_min: 1, slippage_bps: 20 };
export const SPX = { symbol: 'SPX', start_date: '2010-01-01', end_date: '2014-12-31', initial_capital: 100000 };

/** Stores HND, HNB and HNC. */
export async function storeHandMadeBars(db: Db, clock: ManualClock): Promise<void> {
  for (const [symbol, rows] of [['HND', HND], ['HNB', HNB], ['HNC', HNC]] as const) await storeBars(db, clock, { symbol, bars: bars(rows) });
}
