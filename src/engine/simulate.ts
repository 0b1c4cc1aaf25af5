/**
 * The fill model, once for every template (DESIGN.md "Backtest conventions"): a signal on the close of bar t fills
 * at the open of bar t + 1 (a signal on the last bar never fills); a buy spends all cash on whole shares,
 * floor(cash / open), and does not happen when that is 0; long or flat, no pyramiding, no costs; a position still
 * open after the last bar is sold at the last close and reported as a SELL on the last bar.
 */
import { calendarDaysBetween, timestamp } from './dates.js';
import { ENTER, EXIT } from './signals.js';
import type { BacktestTrade, BarSeries } from './types.js';

export interface Simulation {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly trades: BacktestTrade[];
}

export function simulate(bars: BarSeries, signals: Uint8Array, initialCapital: number): Simulation {
  const { open, close, dates } = bars;
  const n = close.length;
  const last = n - 1;
  const equity = new Float64Array(n);
  const trades: BacktestTrade[] = [];
  let cash = initialCapital;

  // Position by position rather than bar by bar: while flat, scan for an entry signal; while long, for an exit
  // signal. Each stretch between two fills is a tight loop with the same cash and shares.
  let from = 0; // first bar whose equity is not written yet; flat at its open
  while (from < n) {
    const entrySignal = nextSignal(signals, from, last, ENTER);
    const entryBar = entrySignal < 0 ? n : entrySignal + 1;
    for (let t = from; t < entryBar; t++) equity[t] = cash;
    if (entrySignal < 0) break;
    const entryPrice = open[entryBar]!;
    const shares = Math.floor(cash / entryPrice);
    if (!(shares >= 1 && Number.isFinite(shares))) {
      from = entryBar; // cannot buy one share: still flat, look for the next entry from this bar on
      continue;
    }
    cash -= shares * entryPrice;
    trades.push(buy(dates[entryBar]!, entryPrice, shares));

    const exitSignal = nextSignal(signals, entryBar, last, EXIT);
    const held = exitSignal < 0 ? n : exitSignal + 1; // bars entryBar … held − 1 end the day long
    for (let t = entryBar; t < held; t++) equity[t] = cash + shares * close[t]!;
    if (exitSignal < 0) {
      trades.push(sell(dates, entryBar, entryPrice, last, close[last]!, shares));
      break;
    }
    const exitPrice = open[held]!;
    cash += shares * exitPrice;
    trades.push(sell(dates, entryBar, entryPrice, held, exitPrice, shares));
    from = held;
  }

  return { equity, drawdowns: drawdownCurve(equity), trades };
}

/** The first bar in from … before − 1 whose signal has `flag`, or −1. */
function nextSignal(signals: Uint8Array, from: number, before: number, flag: number): number {
  for (let t = from; t < before; t++) if (signals[t]! & flag) return t;
  return -1;
}

/** equity[t] / max(equity[0..t]) − 1. */
export function drawdownCurve(equity: Float64Array): Float64Array {
  const drawdowns = new Float64Array(equity.length);
  let peak = -Infinity;
  for (let t = 0; t < equity.length; t++) {
    const value = equity[t]!;
    if (value > peak) peak = value;
    drawdowns[t] = value / peak - 1;
  }
  return drawdowns;
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
