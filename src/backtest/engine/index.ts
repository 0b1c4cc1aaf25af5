/**
 * The backtest engine: pure functions, no I/O. Bars and a template in, equity, trades and metrics out.
 * Conventions: docs/backtesting.md.
 */
import { computeMetrics } from './metrics.js';
import { comparisonEntry, type ComparisonEntry } from './result.js';
import { RULES } from './rules.js';
import { simulate } from './simulate.js';
import { defaultParameters } from './templates.js';
import type { BacktestRun, BarSeries, ResolvedParameters, StrategyTemplate } from './types.js';

export type * from './types.js';
export { STRATEGY_TEMPLATES, findTemplate, defaultParameters, resolveTemplateParameters } from './templates.js';
export {
  legacyBacktestResult,
  comparisonEntry,
  comparisonResult,
  type DataFeed,
  type LegacyBacktestInput,
  type LegacyBacktestResult,
  type ComparisonEntry,
  type ComparisonInput,
  type ComparisonResult,
} from './result.js';
export * as indicators from './indicators.js';

/**
 * Runs one template over the bars. Pure and deterministic. Requires bars.dates.length >= 1, initialCapital > 0
 * and params from resolveTemplateParameters (or defaultParameters) for this template.
 */
export function runTemplateBacktest(
  bars: BarSeries,
  template: StrategyTemplate,
  params: ResolvedParameters,
  initialCapital: number,
): BacktestRun {
  // Programming errors, not user input: the service validates the request before it gets here.
  if (bars.dates.length === 0) throw new RangeError('A backtest needs at least one bar.');
  if (!(initialCapital > 0 && Number.isFinite(initialCapital))) throw new RangeError('The initial capital must be a positive number.');
  const rule = RULES[template.id];
  if (!rule) throw new RangeError(`No rules for template "${template.id}".`);
  const missing = template.parameters.find((p) => !Number.isFinite(params[p.name]));
  if (missing) throw new RangeError(`Parameter "${missing.name}" is missing: resolve parameters with resolveTemplateParameters.`);
  const signals = rule(bars, params);
  const { equity, drawdowns, trades } = simulate(bars, signals, initialCapital);
  const metrics = computeMetrics(bars.dates, equity, drawdowns, trades, initialCapital);
  return { equity, drawdowns, trades, metrics };
}

/** The comparison entries for the given templates, each run with its default parameters, in the given order. */
export function compareTemplates(
  bars: BarSeries,
  templates: readonly StrategyTemplate[],
  initialCapital: number,
): ComparisonEntry[] {
  return templates.map((template) =>
    comparisonEntry(template, runTemplateBacktest(bars, template, defaultParameters(template), initialCapital)),
  );
}
export { timestamp as barTimestamp } from './dates.js';
