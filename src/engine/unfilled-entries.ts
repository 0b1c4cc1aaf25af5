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
 * cash for one whole share (still flat, every entry signal acts: simulate.ts). Undefined when no entry signal came
 * to a fill at all. Only meaningful when the run of the same bars, template and parameters has no trades.
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
