/** One template backtest: the fused pass where the template has one and the settings allow it, the generic path otherwise. */
import { ExecutionModel, skipsBarsSafely } from './execution/model.js';
import { FRICTIONLESS, type ExecutionSettings } from './execution/settings.js';
import { FUSED_RUNS } from './fused/index.js';
import { genericTemplateRun } from './generic-run.js';
import { TEMPLATE_SIGNALS } from './signals.js';
import type { BacktestRun, BarSeries, ResolvedParameters, StrategyTemplate } from './types.js';

/**
 * Runs one template over the bars with the execution settings (costs, sizing, exits; FRICTIONLESS by default).
 * Pure and deterministic. Requires bars.dates.length >= 1, initialCapital > 0, params from resolveTemplateParameters
 * (or defaultParameters) for this template, and settings the caller validated (DESIGN.md "Execution model").
 */
export function runTemplateBacktest(
  bars: BarSeries,
  template: StrategyTemplate,
  params: ResolvedParameters,
  initialCapital: number,
  execution: ExecutionSettings = FRICTIONLESS,
): BacktestRun {
  // Programming errors, not user input: the service validates the request before it gets here.
  if (bars.dates.length === 0) throw new RangeError('A backtest needs at least one bar.');
  if (!(initialCapital > 0 && Number.isFinite(initialCapital))) throw new RangeError('The initial capital must be a positive number.');
  if (!TEMPLATE_SIGNALS[template.id]) throw new RangeError(`No rules for template "${template.id}".`);
  const missing = template.parameters.find((p) => !Number.isFinite(params[p.name]));
  if (missing) throw new RangeError(`Parameter "${missing.name}" is missing: resolve parameters with resolveTemplateParameters.`);
  const model = new ExecutionModel(execution);
  // One fused pass where the template has one (fused/) and no exit needs every close checked, the generic path
  // otherwise: the same output.
  const fused = skipsBarsSafely(model) ? FUSED_RUNS[template.id]?.(bars, params, initialCapital, model) : null;
  return fused ?? genericTemplateRun(bars, template.id, params, initialCapital, model);
}
