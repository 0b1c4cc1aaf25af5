/**
 * The fill model, once for every template (DESIGN.md "Backtest conventions"): a signal on the close of bar t fills
 * at the open of bar t + 1 (a signal on the last bar never fills); a buy spends all cash on whole shares,
 * floor(cash / open), and does not happen when that is 0; long or flat, no pyramiding, no costs; a position still
 * open after the last bar is sold at the last close and reported as a SELL on the last bar.
 */
import { calendarDaysBetween, timestamp } from './dates.js';
import { ENTER, EXIT } from './signals.js';
import type { TemplateExitReason } from './execution/settings.js';
import type { BacktestTrade, BarSeries } from './types.js';

export interface Simulation {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly trades: BacktestTrade[];
  /** The lowest drawdown (≤ 0), found in the same pass. */
  readonly maxDrawdown: number;
}

/**
 * One pass over the bars: the fills at each open (the previous close's signal), then the bar's equity, its
 * drawdown from the running peak and the lowest drawdown so far. No per-bar allocation; a trade object per fill.
 * An unchanged equity skips the division: its drawdown is the previous one (the same number the division would give).
 */
export function simulate(bars: BarSeries, signals: Uint8Array, initialCapital: number): Simulation {
  const { open, close, dates } = bars;
  const n = close.length;
  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n);
  const trades: BacktestTrade[] = [];
  let cash = initialCapital;
  let shares = 0;
  let entryBar = -1;
  let entryPrice = 0;
  let wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long
  let peak = -Infinity;
  let lowest = 0;
  let previous = initialCapital;
  let drawdown = 0;
  for (let t = 0; t < n; t++) {
    if (t > 0 && signals[t - 1]! & wanted) {
      const price = open[t]!;
      if (wanted === ENTER) {
        const bought = Math.floor(cash / price);
        // Cannot buy one share: still flat, the next entry signal may act.
        if (bought >= 1 && Number.isFinite(bought)) {
          shares = bought;
          cash -= shares * price;
          entryBar = t;
          entryPrice = price;
          wanted = EXIT;
          trades.push(buy(dates[t]!, price, shares));
        }
      } else {
        cash += shares * price;
        trades.push(sell(dates, entryBar, entryPrice, t, price, shares, 'signal'));
        shares = 0;
        wanted = ENTER;
      }
    }
    const value = shares === 0 ? cash : cash + shares * close[t]!;
    equity[t] = value;
    if (value >= peak) {
      peak = value;
      drawdown = 0; // value / peak − 1
    } else if (value !== previous) {
      drawdown = value / peak - 1;
    }
    drawdowns[t] = drawdown;
    if (drawdown < lowest) lowest = drawdown;
    previous = value;
  }
  if (shares > 0) trades.push(sell(dates, entryBar, entryPrice, n - 1, close[n - 1]!, shares, 'end_of_period'));
  return { equity, drawdowns, trades, maxDrawdown: lowest };
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

export function buy(date: string, price: number, shares: number, commission = 0): BacktestTrade {
  return { date: timestamp(date), type: 'BUY', price, shares, value: shares * price, pnl: null, return: null, duration: null, commission };
}

export function sell(
  dates: readonly string[],
  entryBar: number,
  entryPrice: number,
  exitBar: number,
  price: number,
  shares: number,
  exitReason: TemplateExitReason,
): BacktestTrade {
  return sellTrade(timestamp(dates[exitBar]!), entryPrice, price, shares, calendarDaysBetween(dates[entryBar]!, dates[exitBar]!), exitReason);
}

/** The SELL closing a position bought at `entryPrice` and held `duration` calendar days. */
export function sellTrade(
  date: string,
  entryPrice: number,
  price: number,
  shares: number,
  duration: number,
  exitReason: TemplateExitReason,
): BacktestTrade {
  const value = shares * price;
  return {
    date,
    type: 'SELL',
    price,
    shares,
    value,
    pnl: value - shares * entryPrice,
    return: price / entryPrice - 1,
    duration,
    commission: 0,
    exit_reason: exitReason,
  };
}
