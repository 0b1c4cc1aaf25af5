/**
 * The shapes the lab reads from the legacy catalogue and backtest API (docs/market-data.md, "HTTP API"):
 * the server's own types, so browser and server cannot drift apart. Type-only imports: nothing of the
 * server is bundled.
 */
import type { BacktestMetrics as EngineMetrics } from '../../engine/types';

export type { StrategyTemplate, TemplateParameter } from '../../engine/types';
export type { LegacyTrade as BacktestTrade } from '../../backtest/backtest-result';
export type { ComparisonEntry, ComparisonResult, LegacyBacktestResult as BacktestResult } from '../../backtest/backtest-result';
export type { DataFeed } from '../../market/market-terms';
export type { DataFeedEntry } from '../../market/data-feeds.service';

/** Every summary statistic a result carries beside its own fields (`final_capital` is a result field). */
export type BacktestMetrics = Omit<EngineMetrics, 'final_capital'>;

/** One row of `GET /api/symbols`: a stored symbol with its source and range, or a ticker the provider offers. */
export type { SymbolEntry } from '../../market/symbols.service';
