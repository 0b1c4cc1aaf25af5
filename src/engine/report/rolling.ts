import { annualizedVolatility, sharpeRatio } from '../metrics.js';
import type { RollingFigures } from './types.js';

/** About six months of trading days. */
export const ROLLING_WINDOW_DAYS = 126;

/**
 * The Sharpe ratio and the volatility (metrics.ts, the run's own definitions) over each window of `windowDays` daily
 * returns: one figure per date from the `windowDays`-th date after the first on (none over a shorter run).
 */
export function rollingFigures(dates: readonly string[], equity: Float64Array, windowDays = ROLLING_WINDOW_DAYS): RollingFigures {
  const rolling: RollingFigures = { window_days: windowDays, dates: [], sharpe: [], volatility: [] };
  for (let t = windowDays; t < dates.length; t++) {
    const window = equity.subarray(t - windowDays, t + 1);
    rolling.dates.push(dates[t]!);
    rolling.sharpe.push(sharpeRatio(window));
    rolling.volatility.push(annualizedVolatility(window));
  }
  return rolling;
}
