/**
 * One cell of a sweep over shared series (cell-rules.ts): the account of fused/account.ts and the metrics as
 * FusedAccount.finish computes them, with each bar's equity fed straight into equityStatistics' running sums.
 */
import { calendarDaysBetween, dayNumbersOf, type DayNumbers } from '../dates.js';
import { annualizedReturn, RoundTripTally, sharpeFromSums } from '../metrics.js';
import { Ledger } from '../execution/ledger.js';
import { templatePnl, type ExecutionModel } from '../execution/model.js';
import { ENTER, EXIT } from '../signals.js';
import type { BarSeries } from '../types.js';
import type { CellMetrics } from './cell-metrics.js';

/** What every cell of one call shares: the bars' columns, the capital, the calendar days and the execution model. */
export class CellContext {
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly days: DayNumbers;
  readonly calendarDays: number;
  readonly initialCapital: number;
  readonly model: ExecutionModel;

  constructor(bars: BarSeries, initialCapital: number, model: ExecutionModel) {
    this.open = bars.open;
    this.high = bars.high;
    this.low = bars.low;
    this.model = model;
    this.close = bars.close;
    this.days = dayNumbersOf(bars.dates);
    this.calendarDays = calendarDaysBetween(bars.dates[0]!, bars.dates[bars.dates.length - 1]!);
    this.initialCapital = initialCapital;
  }
}

/**
 * A cell's trading rule over the shared series. `nextEnter(t)` / `nextExit(t)`: scanning the closes from bar t on
 * (t ≥ first), the index after the first bar whose ENTER / EXIT signal is set, or n if there is none. No signal can
 * be set on a bar before `first` (≥ 2: no fill before bar 3, so the first daily return is 0).
 */
export interface CellRule {
  readonly first: number;
  nextEnter(t: number): number;
  nextExit(t: number): number;
}

/**
 * One cell: the account of fused/account.ts (a signal on close t fills at open t + 1, through the execution model's
 * ledger: costs and sizing; an open position sold at the last close), and the metrics as FusedAccount.finish
 * computes them. Only the signal that acts is looked for: ENTER while flat, EXIT while long (no exits: sweepCells
 * routes a sweep with exits to runTemplateBacktest). The equity is never stored: each bar's value goes straight into
 * the running lowest drawdown and return sums of fused/account.ts equityStatistics, by the same operations in the
 * same order. A flat stretch is observed once: its repeated value is a return of exactly +0 (no fill before bar 3,
 * so no first-return shift), which leaves both sums as they are, and it cannot lower the drawdown again. The last
 * bar of a held stretch that reaches the end is the sale at the last close: the cash after it, observed as flat.
 */
export function ruleCell(context: CellContext, rule: CellRule): CellMetrics {
  const { open, high, low, close, initialCapital, days, model } = context;
  const n = close.length;
  const last = n - 1;
  const tally = new RoundTripTally();
  const ledger = new Ledger(model, initialCapital);
  let cash = initialCapital;
  let shares = 0;
  let wanted = ENTER;
  let entryBar = 0;
  // equityStatistics' running state, from bar `first` (the bars before it hold the initial capital).
  let peak = initialCapital;
  let previous = initialCapital;
  let lowest = 0;
  let ratio = (1 + 1e-15) * (1 + 1e-15);
  let deepest = peak * ratio;
  let returnSum = 0;
  let returnSquares = 0;
  let value = initialCapital;
  let acts = false; // the previous close's signal acts at this bar's open
  for (let t = rule.first; t < n; ) {
    if (acts) {
      if (wanted === ENTER) {
        // Cannot buy one share: still flat, the next entry signal may act.
        if (ledger.buy(open[t]!, high, t)) {
          wanted = EXIT;
          entryBar = t;
        }
      } else {
        sold(ledger, tally, open[t]!, low, t, days.between(entryBar, t));
        wanted = ENTER;
      }
      cash = ledger.cash;
      shares = ledger.shares;
    }
    // The bars up to the next close whose signal acts (nothing fills in between), then their equity.
    const start = t;
    t = wanted === ENTER ? rule.nextEnter(t) : rule.nextExit(t);
    acts = true; // when t < n; the loop ends otherwise
    if (shares !== 0) {
      // A held stretch bar by bar in a loop of its own (one loop for both, with the flat test inside, ran the 9,999
      // sma cells of the bench in 350 ms instead of 210); one that reaches the end stops before the last bar.
      const end = t < n ? t : last;
      for (let u = start; u < end; u++) {
        value = cash + shares * close[u]!;
        // As equityStatistics, bar by bar, with the new-peak branch made a max (that branch goes either way on a
        // rising equity and was mispredicted): at a new peak, value < value · ratio only while ratio > 1 (no drawdown
        // yet), and then the division gives 0, which is not below the lowest (0).
        peak = Math.max(peak, value);
        deepest = peak * ratio;
        if (value < deepest) {
          const drawdown = value / peak - 1;
          if (drawdown < lowest) {
            lowest = drawdown;
            ratio = (1 + drawdown + 1e-15) * (1 + 1e-15);
            deepest = peak * ratio;
          }
        }
        const d = value !== previous && previous !== 0 ? value / previous - 1 : 0;
        returnSum += d;
        returnSquares += d * d;
        previous = value;
      }
      if (end === t) continue;
      sold(ledger, tally, close[last]!, low, last, days.between(entryBar, last));
      cash = ledger.cash;
      shares = 0;
    }
    // A flat stretch (or the last bar after the closing sale): its equity is the cash, observed once.
    value = cash;
    peak = Math.max(peak, value);
    deepest = peak * ratio;
    if (value < deepest) {
      const drawdown = value / peak - 1;
      if (drawdown < lowest) {
        lowest = drawdown;
        ratio = (1 + drawdown + 1e-15) * (1 + 1e-15);
        deepest = peak * ratio;
      }
    }
    const d = value !== previous && previous !== 0 ? value / previous - 1 : 0;
    returnSum += d;
    returnSquares += d * d;
    previous = value;
  }
  const finalCapital = value;
  const trades = tally.statistics();
  return {
    total_return: finalCapital / initialCapital - 1,
    annualized_return: annualizedReturn(initialCapital, finalCapital, context.calendarDays),
    sharpe_ratio: sharpeFromSums(returnSum, returnSquares, last, 0),
    max_drawdown: lowest,
    win_rate: trades.win_rate,
    profit_factor: trades.profit_factor,
    total_trades: trades.total_trades,
  };
}

/** Sells the ledger's position at `reference` and adds the round trip (pnl as execution/model.ts) to the tally. */
function sold(ledger: Ledger, tally: RoundTripTally, reference: number, lows: Float64Array, t: number, holdingDays: number): void {
  const { shares, entryPrice, entryCommission } = ledger;
  ledger.sell(reference, lows, t);
  tally.add(templatePnl(shares, entryPrice, ledger.price, entryCommission + ledger.commission), holdingDays);
}
