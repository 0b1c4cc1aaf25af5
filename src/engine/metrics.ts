/**
 * Every summary statistic of a backtest, defined once (formulas also in docs/backtesting.md).
 * A ratio whose denominator is zero, or a result that would not be a finite number, is null.
 */
import { calendarDaysBetween } from './dates.js';
import type { BacktestMetrics, BacktestTrade } from './types.js';

export const TRADING_DAYS_PER_YEAR = 252;
export const DAYS_PER_YEAR = 365.25;

export function computeMetrics(
  dates: readonly string[],
  equity: Float64Array,
  drawdowns: Float64Array,
  trades: readonly BacktestTrade[],
  initialCapital: number,
  lowestDrawdown = maxDrawdown(drawdowns),
): BacktestMetrics {
  return backtestMetrics(dates, equity, initialCapital, lowestDrawdown, sharpeRatio(equity), tradeStatistics(trades));
}

/**
 * The metrics from their parts: the Sharpe ratio and the round-trip statistics already computed (the fused runs
 * compute them from their own columns, by the same operations).
 */
export function backtestMetrics(
  dates: readonly string[],
  equity: Float64Array,
  initialCapital: number,
  lowestDrawdown: number,
  sharpe: number | null,
  roundTrips: TradeStatistics,
): BacktestMetrics {
  const finalCapital = equity[equity.length - 1]!;
  const days = calendarDaysBetween(dates[0]!, dates[dates.length - 1]!);
  return {
    final_capital: finalCapital,
    total_return: finalCapital / initialCapital - 1,
    annualized_return: annualizedReturn(initialCapital, finalCapital, days),
    sharpe_ratio: sharpe,
    max_drawdown: lowestDrawdown,
    ...roundTrips,
  };
}

/**
 * (final / initial)^(365.25 / days) − 1 over the calendar days between the first and the last bar.
 * With 0 days (a single bar) the exponent's denominator is 0: null, like every other undefined ratio.
 */
export function annualizedReturn(initialCapital: number, finalCapital: number, days: number): number | null {
  if (days <= 0) return null;
  return finite(Math.pow(finalCapital / initialCapital, DAYS_PER_YEAR / days) - 1);
}

/**
 * mean / sample standard deviation (n − 1) of the daily returns equity[t] / equity[t − 1] − 1, × √252,
 * risk-free rate 0. null with fewer than 2 returns or a zero standard deviation (flat equity, or every return the
 * same). A return from an equity of 0 counts as 0. One pass (sharpeFromSums): each return is divided out once and
 * added, less the first return, to a sum and a sum of squares, in order.
 */
export function sharpeRatio(equity: Float64Array): number | null {
  const { sum, squares, count, shift } = dailyReturnSums(equity);
  return sharpeFromSums(sum, squares, count, shift);
}

/**
 * Annualized volatility: the sample standard deviation (n − 1) of the Sharpe ratio's daily returns, × √252, from the
 * same shifted sums. 0 for a flat equity; null with fewer than 2 returns.
 */
export function annualizedVolatility(equity: Float64Array): number | null {
  const { sum, squares, count } = dailyReturnSums(equity);
  if (count < 2) return null;
  const deviations = squares - sum * (sum / count);
  return finite(Math.sqrt(deviations > 0 ? deviations / (count - 1) : 0) * Math.sqrt(TRADING_DAYS_PER_YEAR));
}

/** The daily returns' count, first return (shift) and the sums of d = r − shift and of d², in order. */
function dailyReturnSums(equity: Float64Array): { sum: number; squares: number; count: number; shift: number } {
  const count = Math.max(equity.length - 1, 0);
  const shift = count >= 1 ? dailyReturn(equity, 1) : 0;
  let sum = 0;
  let squares = 0;
  for (let t = 1; t <= count; t++) {
    const d = dailyReturn(equity, t) - shift;
    sum += d;
    squares += d * d;
  }
  return { sum, squares, count, shift };
}

/**
 * The Sharpe ratio of `count` daily returns r from the sums of d = r − shift and of d² (shift: the first return).
 * The squared deviations from the mean add up to Σd² − Σd · mean(d). Shifting by a return keeps that subtraction
 * from cancelling: unshifted, Σr² and Σr · mean(r) are both about n·r² when the returns barely vary, and their
 * difference is rounding noise — every return equal at 1 % a day gave a deviation of 3·10⁻¹⁰ and a Sharpe ratio of
 * 6·10⁸ instead of none. Shifted, equal returns give d = 0 exactly, so null; otherwise it agrees with the two-pass
 * Σ(r − mean)² to the last bits (metrics.test.ts holds both to exact rational arithmetic). A difference that rounding
 * makes negative is a deviation of 0, so null.
 */
export function sharpeFromSums(sum: number, squares: number, count: number, shift: number): number | null {
  if (count < 2) return null;
  const shiftedMean = sum / count;
  const deviations = squares - sum * shiftedMean;
  const deviation = deviations > 0 ? Math.sqrt(deviations / (count - 1)) : 0; // NaN (an infinite equity): null
  if (deviation === 0) return null;
  return finite(((shift + shiftedMean) / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR));
}

/**
 * Sortino: mean / downside deviation of the same daily returns as the Sharpe ratio, × √252, target 0. The downside
 * deviation is sqrt(Σ min(r, 0)² / (n − 1)) over all n returns (gains count as 0 deviation, the divisor is the
 * Sharpe's sample one so the two ratios compare). null with fewer than 2 returns or no losing day (deviation 0).
 */
export function sortinoRatio(equity: Float64Array): number | null {
  const count = equity.length - 1;
  if (count < 2) return null;
  let sum = 0;
  let downside = 0;
  for (let t = 1; t <= count; t++) {
    const r = dailyReturn(equity, t);
    sum += r;
    if (r < 0) downside += r * r;
  }
  const deviation = Math.sqrt(downside / (count - 1));
  if (deviation === 0) return null;
  return finite((sum / count / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR));
}

/**
 * The fraction of bars on whose close at least one position was held (`held[t]` = 1): 0 … 1.
 * null without bars (zero denominator).
 */
export function exposure(held: Uint8Array): number | null {
  let count = 0;
  for (let t = 0; t < held.length; t++) if (held[t]) count++;
  return ratio(count, held.length);
}

function dailyReturn(equity: Float64Array, t: number): number {
  const before = equity[t - 1]!;
  const now = equity[t]!;
  // An unchanged equity (every flat day) is a return of exactly 0, as now / before − 1 would give: no division.
  return now === before || before === 0 ? 0 : now / before - 1;
}

/** The lowest drawdown: a fraction ≤ 0, −0.25 meaning equity fell 25 % below its running peak. */
export function maxDrawdown(drawdowns: Float64Array): number {
  let lowest = 0;
  for (let t = 0; t < drawdowns.length; t++) if (drawdowns[t]! < lowest) lowest = drawdowns[t]!;
  return lowest;
}

export type TradeStatistics = Pick<
  BacktestMetrics,
  | 'win_rate'
  | 'profit_factor'
  | 'total_trades'
  | 'winning_trades'
  | 'losing_trades'
  | 'avg_profit'
  | 'avg_loss'
  | 'avg_holding_days'
>;

/**
 * Over round trips (each SELL, including the closing sale at the end): a win has pnl > 0, a loss pnl < 0, a
 * break-even trade is neither. win_rate = wins / trades; profit_factor = gross profit / |gross loss|;
 * avg_profit / avg_loss = mean pnl (currency) of the wins / of the losses (avg_loss < 0);
 * avg_holding_days = mean duration of all round trips.
 */
export function tradeStatistics(trades: readonly BacktestTrade[]): TradeStatistics {
  const tally = new RoundTripTally();
  for (const trade of trades) if (trade.type === 'SELL') tally.add(trade.pnl!, trade.duration!);
  return tally.statistics();
}

/** One closed position: its profit or loss in currency and the calendar days it was held. */
export interface RoundTrip {
  readonly pnl: number;
  readonly holdingDays: number;
}

/** The statistics of `tradeStatistics` over round trips given directly (the library backtest's trades). */
export function roundTripStatistics(roundTrips: readonly RoundTrip[]): TradeStatistics {
  const tally = new RoundTripTally();
  for (const trip of roundTrips) tally.add(trip.pnl, trip.holdingDays);
  return tally.statistics();
}

/** The running sums behind the round-trip statistics, added to one closed position at a time, in order. */
export class RoundTripTally {
  private total = 0;
  private wins = 0;
  private losses = 0;
  private grossProfit = 0;
  private grossLoss = 0;
  private holdingDays = 0;

  add(pnl: number, holdingDays: number): void {
    this.total++;
    this.holdingDays += holdingDays;
    if (pnl > 0) {
      this.wins++;
      this.grossProfit += pnl;
    } else if (pnl < 0) {
      this.losses++;
      this.grossLoss += pnl;
    }
  }

  statistics(): TradeStatistics {
    const { total, wins, losses, grossProfit, grossLoss, holdingDays } = this;
    return {
      win_rate: ratio(wins, total),
      profit_factor: ratio(grossProfit, -grossLoss),
      total_trades: total,
      winning_trades: wins,
      losing_trades: losses,
      avg_profit: ratio(grossProfit, wins),
      avg_loss: ratio(grossLoss, losses),
      avg_holding_days: ratio(holdingDays, total),
    };
  }
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : finite(numerator / denominator);
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
