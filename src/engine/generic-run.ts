/**
 * The generic path of a template backtest, for every template: its signals (signals.ts), the simulation
 * (simulate.ts), the metrics (metrics.ts), one array per step. The templates in fused/ run the same computation in
 * one pass; this path is what they are tested against, and the one that runs a template with exits set
 * (run-template.ts).
 */
import { FRICTIONLESS_MODEL } from './execution/model.js';
import { computeMetrics } from './metrics.js';
import { TEMPLATE_SIGNALS } from './signals.js';
import { simulate } from './simulate.js';
import type { BacktestRun, BarSeries, ResolvedParameters } from './types.js';

export function genericTemplateRun(bars: BarSeries, templateId: string, params: ResolvedParameters, initialCapital: number, model = FRICTIONLESS_MODEL): BacktestRun {
  const rule = TEMPLATE_SIGNALS[templateId];
  if (!rule) throw new RangeError(`No rules for template "${templateId}".`);
  const signals = rule(bars, params);
  const { equity, drawdowns, trades, maxDrawdown, costsPaid, unfilled } = simulate(bars, signals, initialCapital, model);
  const metrics = computeMetrics(bars.dates, equity, drawdowns, trades, initialCapital, maxDrawdown);
  return { equity, drawdowns, trades, metrics, costs_paid: costsPaid, unfilled_entries: unfilled };
}
