import { ExecutionModel } from './execution/model.js';
import { FRICTIONLESS, type ExecutionSettings } from './execution/settings.js';
import { ENTER, TEMPLATE_SIGNALS } from './signals.js';
import type { BarSeries, ResolvedParameters } from './types.js';

export interface UnfilledEntries {
  /** Entry signals that reached a fill bar (a signal on the last bar never does). */
  readonly count: number;
  /** The bar of the first attempted fill: its open was the price of one share. */
  readonly firstFillBar: number;
}

/**
 * For a run that made no trade: the template's entry signals that came to a fill, each of which found too little
 * cash (or budget) for one whole share and its commission (still flat, every entry signal acts: simulate.ts; under
 * any costs, sizing or exits, as an account that never bought never exits). Undefined when no entry signal came
 * to a fill at all. Only meaningful when the run of the same bars, template and parameters has no trades; a run
 * with trades says how many of its buys found q = 0 in BacktestRun.unfilled_entries.
 */
export function unfilledEntries(bars: BarSeries, templateId: string, params: ResolvedParameters): UnfilledEntries | undefined {
  const rule = TEMPLATE_SIGNALS[templateId];
  if (!rule) throw new RangeError(`No rules for template "${templateId}".`);
  const signals = rule(bars, params);
  let count = 0;
  let firstFillBar = -1;
  for (let t = 0; t + 1 < signals.length; t++) {
    if (!(signals[t]! & ENTER)) continue;
    if (count === 0) firstFillBar = t + 1;
    count += 1;
  }
  return count === 0 ? undefined : { count, firstFillBar };
}

/**
 * What one share cost at a fill bar's open under the settings: its fill price (slippage included, within the bar)
 * and that price plus the commission of a one-share order, the least cash a buy there needs.
 */
export function oneShareAt(bars: BarSeries, bar: number, execution: ExecutionSettings = FRICTIONLESS): { price: number; cost: number } {
  const model = new ExecutionModel(execution);
  const price = model.buyPrice(bars.open[bar]!, bars.high, bar);
  return { price, cost: model.cost(1, price) };
}
