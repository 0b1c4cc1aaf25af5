/**
 * The backtest engine: pure functions, no I/O, nothing imported from outside src/engine. Bars and a template in,
 * equity, trades and metrics out; the library replay is in ./replay/. Conventions: docs/backtesting.md.
 */
export type * from './types.js';
export { STRATEGY_TEMPLATES, findTemplate, defaultParameters, resolveTemplateParameters } from './templates.js';
export * as indicators from './indicators.js';
export { plainArray } from './plain-array.js';
export { fractionArray, moneyArray, roundedUnits, roundFraction, roundFractionOrNull, roundMoney, roundMoneyOrNull } from './round.js';
export { EngineError, type EngineErrorDetail } from './engine-error.js';
export { timestamp as barTimestamp } from './dates.js';
export { runTemplateBacktest } from './run-template.js';
export {
  FRICTIONLESS,
  NO_COSTS,
  NO_EXITS,
  NO_COSTS_PAID,
  EXIT_REASONS,
  type Costs,
  type CostsPaid,
  type ExecutionSettings,
  type Exits,
  type Sizing,
  type TemplateExitReason,
} from './execution/settings.js';
export { oneShareAt, unfilledEntries, type UnfilledEntries } from './unfilled-entries.js';
export * from './sweep/index.js';

