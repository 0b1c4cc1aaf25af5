/**
 * The `report` of a backtest answer from a finished run (no second backtest), rounded at output like the rest of
 * the body (docs/backtesting.md "Output precision"): returns, depths, ratios and bin edges to 8 decimals.
 */
import { roundFraction, roundFractionOrNull, type BacktestTrade } from '../engine/index.js';
import { backtestReport, type BacktestReport, type MonthReturn, type ReportInput, type ReportTrade } from '../engine/report/index.js';

/** The response cache key's part for the flag: nothing without a report, so the keys of other bodies stay as they were. */
export function reportKey(request: { report?: boolean }): string[] {
  return request.report === true ? ['report'] : [];
}

export function roundedReport(run: ReportInput): BacktestReport {
  const r = backtestReport(run);
  const month = (m: MonthReturn | null) => m && { year: m.year, month: m.month, return: roundFraction(m.return) };
  return {
    monthly_returns: r.monthly_returns.map((m) => month(m)!),
    yearly_returns: r.yearly_returns.map((y) => ({ year: y.year, return: roundFraction(y.return) })),
    worst_drawdowns: r.worst_drawdowns.map((d) => ({ ...d, depth: roundFraction(d.depth) })),
    rolling: { ...r.rolling, sharpe: r.rolling.sharpe.map(roundFractionOrNull), volatility: r.rolling.volatility.map(roundFractionOrNull) },
    trade_returns: { bins: r.trade_returns.bins.map((b) => ({ from: roundFraction(b.from), to: roundFraction(b.to), count: b.count })) },
    time_in_market: roundFractionOrNull(r.time_in_market),
    best_month: month(r.best_month),
    worst_month: month(r.worst_month),
    longest_losing_streak: r.longest_losing_streak,
  };
}

/**
 * The round trips of a template run: each SELL with the BUY before it (a template holds one position at a time),
 * its return the SELL's (sell price / buy price − 1, or pnl / (buy value + buy commission) with costs named).
 */
export function templateRoundTrips(trades: readonly BacktestTrade[]): ReportTrade[] {
  const trips: ReportTrade[] = [];
  let entry: string | null = null;
  for (const trade of trades) {
    if (trade.type === 'BUY') entry = trade.date.slice(0, 10);
    else if (entry !== null) {
      trips.push({ entry_date: entry, exit_date: trade.date.slice(0, 10), return: trade.return! });
      entry = null;
    }
  }
  return trips;
}
