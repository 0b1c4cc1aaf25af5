/**
 * The backtest engine: pure functions, no I/O, nothing imported from outside src/engine. Bars and a template in,
 * equity, trades and metrics out; the library replay is in ./replay/. Conventions: docs/backtesting.md.
 */
import { computeMetrics } from './metrics.js';
import { TEMPLATE_SIGNALS } from './signals.js';
import { simulate } from './simulate.js';
import type { BacktestRun, BarSeries, ResolvedParameters, StrategyTemplate } from './types.js';

export type * from './types.js';
export { STRATEGY_TEMPLATES, findTemplate, defaultParameters, resolveTemplateParameters } from './templates.js';
export * as indicators from './indicators.js';
export { plainArray } from './plain-array.js';
export { EngineError, type EngineErrorDetail } from './engine-error.js';
export { timestamp as barTimestamp } from './dates.js';

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
  const rule = TEMPLATE_SIGNALS[template.id];
  if (!rule) throw new RangeError(`No rules for template "${template.id}".`);
  const missing = template.parameters.find((p) => !Number.isFinite(params[p.name]));
  if (missing) throw new RangeError(`Parameter "${missing.name}" is missing: resolve parameters with resolveTemplateParameters.`);
  const signals = rule(bars, params);
  const { equity, drawdowns, trades, maxDrawdown, returnSum } = simulate(bars, signals, initialCapital);
  const metrics = computeMetrics(bars.dates, equity, drawdowns, trades, initialCapital, maxDrawdown, returnSum);
  return { equity, drawdowns, trades, metrics };
}
