/**
 * The fill model, once for every template (DESIGN.md "Backtest conventions"): a signal on the close of bar t fills
 * at the open of bar t + 1 (a signal on the last bar never fills); a buy spends all cash on whole shares,
 * floor(cash / open), and does not happen when that is 0; long or flat, no pyramiding, no costs; a position still
 * open after the last bar is sold at the last close and reported as a SELL on the last bar.
 */
import { ENTER, EXIT } from './rules.js';
import type { BacktestTrade, BarSeries } from './types.js';

export interface Simulation {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly trades: BacktestTrade[];
}

const MS_PER_DAY = 86_400_000;

export function simulate(bars: BarSeries, signals: Uint8Array, initialCapital: number): Simulation {
  const { open, close, dates } = bars;
  const n = close.length;
  const last = n - 1;
  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n);
  const trades: BacktestTrade[] = [];

  let cash = initialCapital;
  let shares = 0;
  let entryPrice = 0;
  let entryBar = 0;
  let pending = 0; // ENTER or EXIT decided on the previous close, 0 for none
  let peak = -Infinity;

  for (let t = 0; t < n; t++) {
    if (pending === ENTER) {
      const price = open[t]!;
      const quantity = Math.floor(cash / price);
      if (quantity >= 1 && Number.isFinite(quantity)) {
        shares = quantity;
        entryPrice = price;
        entryBar = t;
        cash -= quantity * price;
        trades.push(buy(dates[t]!, price, quantity));
      }
    } else if (pending === EXIT) {
      const price = open[t]!;
      cash += shares * price;
      trades.push(sell(dates, entryBar, entryPrice, t, price, shares));
      shares = 0;
    }
    pending = 0;

    const value = cash + shares * close[t]!;
    equity[t] = value;
    if (value > peak) peak = value;
    drawdowns[t] = value / peak - 1;

    if (t < last) {
      const signal = signals[t]!;
      if (shares === 0) {
        if (signal & ENTER) pending = ENTER;
      } else if (signal & EXIT) {
        pending = EXIT;
      }
    }
  }

  if (shares > 0) {
    const price = close[last]!;
    trades.push(sell(dates, entryBar, entryPrice, last, price, shares));
  }
  return { equity, drawdowns, trades };
}

function buy(date: string, price: number, shares: number): BacktestTrade {
  return { date: timestamp(date), type: 'BUY', price, shares, value: shares * price, pnl: null, return: null, duration: null };
}

function sell(
  dates: readonly string[],
  entryBar: number,
  entryPrice: number,
  exitBar: number,
  price: number,
  shares: number,
): BacktestTrade {
  const value = shares * price;
  return {
    date: timestamp(dates[exitBar]!),
    type: 'SELL',
    price,
    shares,
    value,
    pnl: value - shares * entryPrice,
    return: price / entryPrice - 1,
    duration: calendarDaysBetween(dates[entryBar]!, dates[exitBar]!),
  };
}

/** 'YYYY-MM-DD' → 'YYYY-MM-DDT00:00:00.000Z'. */
export function timestamp(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/** Whole calendar days from one 'YYYY-MM-DD' date to a later one. */
export function calendarDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY);
}
