import { drawdownPeriods, worstDrawdowns } from './drawdown-periods.js';
import { extremeMonth, monthlyReturns, yearlyReturns } from './period-returns.js';
import { rollingFigures, ROLLING_WINDOW_DAYS } from './rolling.js';
import { longestLosingStreak, byExit, timeInMarket } from './time-in-market.js';
import { tradeReturnBins } from './trade-bins.js';
import type { BacktestReport, ReportInput } from './types.js';

export type * from './types.js';
export { drawdownPeriods, worstDrawdowns, monthlyReturns, yearlyReturns, rollingFigures, ROLLING_WINDOW_DAYS, tradeReturnBins, timeInMarket, longestLosingStreak, byExit };

/** The report of a finished run (docs/backtesting.md "The backtest report"); unrounded. */
export function backtestReport(run: ReportInput, windowDays = ROLLING_WINDOW_DAYS): BacktestReport {
  const equity = run.equity instanceof Float64Array ? run.equity : Float64Array.from(run.equity);
  const months = monthlyReturns(run.dates, equity, run.initialCapital);
  return {
    monthly_returns: months,
    yearly_returns: yearlyReturns(run.dates, equity, run.initialCapital),
    worst_drawdowns: worstDrawdowns(run.dates, equity),
    rolling: rollingFigures(run.dates, equity, windowDays),
    trade_returns: { bins: tradeReturnBins(run.trades.map((t) => t.return)) },
    time_in_market: timeInMarket(run.dates, run.trades),
    best_month: extremeMonth(months, 1),
    worst_month: extremeMonth(months, -1),
    longest_losing_streak: longestLosingStreak(run.trades),
  };
}
