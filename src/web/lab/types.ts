/**
 * The shapes the lab reads from the legacy catalogue and backtest API (docs/market-data.md, "HTTP API"):
 * the engine's own types, so browser and server cannot drift apart. Type-only imports: nothing of the
 * engine is bundled.
 */
import type { BacktestMetrics as EngineMetrics } from '../../backtest/engine/types';

export type { BacktestTrade, StrategyTemplate, TemplateParameter } from '../../backtest/engine/types';
export type {
  ComparisonEntry,
  ComparisonResult,
  DataFeed,
  LegacyBacktestResult as BacktestResult,
} from '../../backtest/engine/result';

/** Every summary statistic a result carries beside its own fields (`final_capital` is a result field). */
export type BacktestMetrics = Omit<EngineMetrics, 'final_capital'>;

/** One row of `GET /api/symbols`. */
export interface SymbolEntry {
  readonly symbol: string;
  readonly name: string;
}
