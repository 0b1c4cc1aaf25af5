/** One template backtest: the fused pass where the template has one, the generic path otherwise. */
import { FRICTIONLESS, type ExecutionSettings } from './execution/settings.js';
import { FUSED_RUNS } from './fused/index.js';
import { genericTemplateRun } from './generic-run.js';
import { TEMPLATE_SIGNALS } from './signals.js';
import type { BacktestRun, BarSeries, ResolvedParameters, StrategyTemplate } from './types.js';

/**
 * Runs one template over the bars. Pure and deterministic. Requires bars.dates.length >= 1, initialCapital > 0
 * and params from resolveTemplateParameters (or defaultParameters) for this template.
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
  // One fused pass where the template has one (fused/), the generic path otherwise: the same output.
  return FUSED_RUNS[template.id]?.(bars, params, initialCapital) ?? genericTemplateRun(bars, template.id, params, initialCapital);
}
