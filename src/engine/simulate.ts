/**
 * The generic path's account, once for every template: a signal on the close of bar t fills at the open of bar
 * t + 1 (a signal on the last bar never fills); long or flat, no pyramiding; the fills, costs, sizing and exits of
 * the execution model (execution/ledger.ts, execution/model.ts); a position still open after the last bar is sold
 * at the last close and reported as a SELL on the last bar (end_of_period).
 */
import { calendarDaysBetween, timestamp } from './dates.js';
import { Ledger } from './execution/ledger.js';
import { positionReturn, templatePnl, type ExecutionModel } from './execution/model.js';
import { EXIT_REASONS, SIGNAL, END_OF_PERIOD, type CostsPaid, type TemplateExitReason } from './execution/settings.js';
import { ENTER, EXIT } from './signals.js';
import type { BacktestTrade, BarSeries } from './types.js';

export interface Simulation {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  readonly trades: BacktestTrade[];
  /** The lowest drawdown (≤ 0), found in the same pass. */
  readonly maxDrawdown: number;
  readonly costsPaid: CostsPaid;
  /** Entry signals whose buy found q = 0. */
  readonly unfilled: number;
}

/**
 * One pass over the bars: the fills at each open (the previous close's signal, or an exit the previous close
 * triggered), then the bar's equity, its drawdown from the running peak and the lowest drawdown so far, then (while
 * long, with exits set) the exits on this close. No per-bar allocation; a trade object per fill. An unchanged equity
 * skips the division: its drawdown is the previous one (the same number the division would give). The position
 * sold at the end is sold before the last equity is written: the last equity is the cash after that sale.
 */
export function simulate(bars: BarSeries, signals: Uint8Array, initialCapital: number, model: ExecutionModel): Simulation {
  const { open, high, low, close, dates } = bars;
  const n = close.length;
  const equity = new Float64Array(n);
  const drawdowns = new Float64Array(n);
  const trades: BacktestTrade[] = [];
  const ledger = new Ledger(model, initialCapital);
  const exits = model.exits;
  let entryBar = -1;
  let wanted = ENTER; // the signal that acts: ENTER while flat, EXIT while long
  let exitDue = -1; // with exits: the reason of the exit the previous close decided, −1 for none
  let peak = -Infinity;
  let lowest = 0;
  let previous = initialCapital;
  let drawdown = 0;
  for (let t = 0; t < n; t++) {
    if (t > 0) {
      if (wanted === ENTER) {
        // Cannot buy one share: still flat, the next entry signal may act.
        if (signals[t - 1]! & ENTER && ledger.buy(open[t]!, high, t)) {
          entryBar = t;
          wanted = EXIT;
          trades.push(buy(dates[t]!, ledger.price, ledger.shares, ledger.commission));
        }
      } else {
        const reason = exits ? exitDue : signals[t - 1]! & EXIT ? SIGNAL : -1;
        if (reason >= 0) {
          trades.push(sell(dates, entryBar, t, ledger, open[t]!, low, reason));
          wanted = ENTER;
        }
      }
    }
    if (t === n - 1 && ledger.shares > 0) trades.push(sell(dates, entryBar, t, ledger, close[t]!, low, END_OF_PERIOD));
    const { cash, shares } = ledger;
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
    if (exits && wanted === EXIT) {
      const code = ledger.exitOnClose(close[t]!);
      exitDue = code !== SIGNAL ? code : signals[t]! & EXIT ? SIGNAL : -1;
    }
  }
  return { equity, drawdowns, trades, maxDrawdown: lowest, costsPaid: ledger.costsPaid(), unfilled: ledger.unfilled };
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

export function buy(date: string, price: number, shares: number, commission: number): BacktestTrade {
  return { date: timestamp(date), type: 'BUY', price, shares, value: shares * price, pnl: null, return: null, duration: null, commission };
}

/** Sells the ledger's position at `reference` on bar `exitBar` and returns the SELL. */
function sell(dates: readonly string[], entryBar: number, exitBar: number, ledger: Ledger, reference: number, lows: Float64Array, reason: number): BacktestTrade {
  const { entryPrice, entryCommission, shares } = ledger;
  ledger.sell(reference, lows, exitBar);
  const duration = calendarDaysBetween(dates[entryBar]!, dates[exitBar]!);
  return sellTrade(timestamp(dates[exitBar]!), entryPrice, ledger.price, shares, duration, EXIT_REASONS[reason]!, entryCommission, ledger.commission);
}

/**
 * The SELL closing a position bought at `entryPrice` (commission `entryCommission`) and held `duration` calendar
 * days: pnl and return as execution/model.ts defines them; `commission` is this sale's own.
 */
export function sellTrade(
  date: string,
  entryPrice: number,
  price: number,
  shares: number,
  duration: number,
  exitReason: TemplateExitReason,
  entryCommission: number,
  commission: number,
): BacktestTrade {
  const commissions = entryCommission + commission;
  const pnl = templatePnl(shares, entryPrice, price, commissions);
  return {
    date,
    type: 'SELL',
    price,
    shares,
    value: shares * price,
    pnl,
    return: positionReturn(true, shares, entryPrice, price, pnl, entryCommission, commissions),
    duration,
    commission,
    exit_reason: exitReason,
  };
}
