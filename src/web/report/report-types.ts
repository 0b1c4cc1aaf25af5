/**
 * The backtest report and the Monte Carlo answer as the web app reads them (DESIGN "The backtest report and Monte
 * Carlo"; docs/backtesting.md): the server's own types, imported type-only, so nothing of the server is bundled.
 */
import type { Static } from 'typebox';
import type { MonteCarloResult as MonteCarloResultSchema } from '../../backtest/monte-carlo.schema';

export type { BacktestReport, DrawdownPeriod, MonthReturn as MonthlyReturn, YearReturn as YearlyReturn } from '../../engine/report/types';

/** `POST /api/backtest/monte-carlo`'s answer. */
export type MonteCarloResult = Static<typeof MonteCarloResultSchema>;
export type MonteCarloMethod = MonteCarloResult['method'];
export type Percentiles = MonteCarloResult['final_equity'];
/** The paths' percentiles (and the actual path) at each of `trade_numbers` (0 is the starting capital). */
export type PathBands = MonteCarloResult['bands'];
