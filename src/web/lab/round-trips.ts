/**
 * A lab backtest's fills paired into round trips, and the figures of its performance summary that the answer does
 * not carry itself (gross profit and loss, largest win and loss, average trade, bars in a trade). Pure: the
 * figures the server answers (returns, drawdown, Sharpe, profit factor, win rate, costs paid) are read, not redone.
 */
import { sortinoRatio } from '../../engine/metrics';
import type { TemplateExitReason } from '../../engine/execution/settings';
import type { BacktestResult, BacktestTrade } from './types';

export interface RoundTrip {
  /** 'YYYY-MM-DD' of the buy and the sell fills. */
  readonly entry_date: string;
  readonly entry_price: number;
  readonly exit_date: string;
  readonly exit_price: number;
  readonly shares: number;
  /** The SELL's: both fills' commissions taken. */
  readonly pnl: number;
  readonly return: number;
  /** Commission of both fills; 0 when the answer lists none. */
  readonly commission: number;
  /** Undefined when the answer names none (a run without execution settings). */
  readonly exit_reason: TemplateExitReason | undefined;
  /** Bars from the buy's fill to the sell's (a sale the next bar is 1). */
  readonly bars: number;
}

const day = (timestamp: string) => timestamp.slice(0, 10);

/**
 * Each BUY with the SELL after it (a template holds one position at a time, so fills alternate). `dates` are the
 * run's bar dates, which count the bars in a trade. A BUY without its SELL (never in an answer: the engine sells at
 * the end) is left out.
 */
export function roundTrips(trades: readonly BacktestTrade[], dates: readonly string[]): RoundTrip[] {
  const barOf = new Map(dates.map((date, index) => [date, index]));
  const trips: RoundTrip[] = [];
  let entry: BacktestTrade | undefined;
  for (const fill of trades) {
    if (fill.type === 'BUY') {
      entry = fill;
      continue;
    }
    if (!entry) continue;
    const entryDay = day(entry.date);
    const exitDay = day(fill.date);
    trips.push({
      entry_date: entryDay,
      entry_price: entry.price,
      exit_date: exitDay,
      exit_price: fill.price,
      shares: fill.shares,
      pnl: fill.pnl ?? 0,
      return: fill.return ?? 0,
      commission: (entry.commission ?? 0) + (fill.commission ?? 0),
      exit_reason: fill.exit_reason,
      bars: (barOf.get(exitDay) ?? 0) - (barOf.get(entryDay) ?? 0),
    });
    entry = undefined;
  }
  return trips;
}

/** The summary's figures computed here; each null where it has no trade to stand on. */
export interface TradeSummary {
  readonly net_profit: number;
  readonly gross_profit: number;
  /** ≤ 0. */
  readonly gross_loss: number;
  readonly average_trade: number | null;
  readonly largest_win: number | null;
  readonly largest_loss: number | null;
  readonly average_bars: number | null;
  readonly sortino_ratio: number | null;
}

/** Money sums to the cent, as the answer's own money (the pnl are cents already; the sum must not drift). */
const cents = (value: number) => Math.round(value * 100) / 100;

export function tradeSummary(result: Pick<BacktestResult, 'initial_capital' | 'final_capital' | 'equity_curve'>, trips: readonly RoundTrip[]): TradeSummary {
  let grossProfit = 0;
  let grossLoss = 0;
  let bars = 0;
  let largestWin: number | null = null;
  let largestLoss: number | null = null;
  for (const trip of trips) {
    if (trip.pnl > 0) {
      grossProfit += trip.pnl;
      largestWin = Math.max(largestWin ?? trip.pnl, trip.pnl);
    } else if (trip.pnl < 0) {
      grossLoss += trip.pnl;
      largestLoss = Math.min(largestLoss ?? trip.pnl, trip.pnl);
    }
    bars += trip.bars;
  }
  const count = trips.length;
  return {
    net_profit: cents(result.final_capital - result.initial_capital),
    gross_profit: cents(grossProfit),
    gross_loss: cents(grossLoss),
    average_trade: count === 0 ? null : cents((grossProfit + grossLoss) / count),
    largest_win: largestWin,
    largest_loss: largestLoss,
    average_bars: count === 0 ? null : bars / count,
    sortino_ratio: sortinoRatio(Float64Array.from(result.equity_curve)),
  };
}

/** The buy-and-hold return of the symbol itself: the benchmark's, when the benchmark is the backtested symbol. */
export function buyAndHoldReturn(result: Pick<BacktestResult, 'symbol' | 'benchmark'>): number | null {
  return result.benchmark && result.benchmark.symbol === result.symbol ? result.benchmark.total_return : null;
}

/** True when the run assumed no costs at all: every cost setting 0 (or none named, as before issue 25). */
export function ranWithoutCosts(result: Pick<BacktestResult, 'costs'>): boolean {
  const costs = result.costs;
  return !costs || (costs.commission_per_share === 0 && costs.commission_pct === 0 && costs.commission_min === 0 && costs.slippage_bps === 0);
}
