/**
 * The Strategy Library API as the web app reads it (docs/strategies.md, docs/backtesting.md "Library backtest"):
 * the server's own schemas and types, so the pages and the routes cannot drift apart. Type-only imports: nothing
 * of the server is bundled.
 */
import type { Static } from 'typebox';
import type { LibraryBacktestRequest as LibraryBacktestRequestSchema } from '../../backtest/library-backtest.schema';
import type { ComplianceRequest as ComplianceRequestSchema, ComplianceResult as ComplianceResultSchema } from '../../compliance/compliance.schema';
import type { ActiveStrategy as ActiveStrategySchema, Strategy } from '../../strategies/strategies.schema';
import type { LibraryBacktestResult } from '../../engine/replay/types';
import type { OptionsReplay, OptionsSpec } from '../../engine/options/replay-types';

export type { ExitReason, LibraryBacktestResult, LibraryStats, LibraryTrade } from '../../engine/replay/types';
export type { OptionLeg, OptionsExitReason, OptionsPricing, OptionsSpec, OptionsTrade, VerticalStructure } from '../../engine/options/replay-types';

export type { AllowedSides, OrderSide, StrategyType } from '../../strategies/strategy-policy';

/** One Strategy Library entry (create, read, update and list answers). Rule fields are null when unset. */
// The schema types `options_spec` loosely (every key optional); the server stores only a spec it checked against the
// strategy's type (src/strategies/options-spec.ts), which is one of the engine's two shapes.
export type StrategyView = Omit<Strategy, 'options_spec'> & { options_spec: OptionsSpec | null };

/** The fields a create or update sends: everything the person edits. */
export type StrategyFields = Omit<StrategyView, 'id' | 'created_at' | 'updated_at'>;

/** `GET /api/strategies/active`, one entry. */
export type ActiveStrategy = Static<typeof ActiveStrategySchema>;

/** `POST /api/trading/compliance-check`: request and answer (`violations[].rule` is one of the rule ids of docs/strategies.md). */
export type ComplianceRequest = Static<typeof ComplianceRequestSchema>;
export type ComplianceResult = Static<typeof ComplianceResultSchema>;

/** `POST /api/backtest/run` for an iron condor or vertical spread strategy: legs priced by a stated model. */
export type OptionsBacktestResult = OptionsReplay & { strategy_id: number };

/** What `POST /api/backtest/run` answers: an options replay carries `pricing`. */
export type BacktestAnswer = LibraryBacktestResult | OptionsBacktestResult;

/** `POST /api/backtest/run` body. */
export type LibraryBacktestRequest = Static<typeof LibraryBacktestRequestSchema>;
