import { calendarDaysBetween } from '../dates.js';
import type { DrawdownPeriod } from './types.js';

/**
 * Every period under water, in date order: from the last date at a running peak, through the first date at the
 * period's lowest equity, to the first date whose equity is back at or above the peak (null if none). The periods
 * never overlap: a new one starts only after the previous one ended.
 */
export function drawdownPeriods(dates: readonly string[], equity: ArrayLike<number>): DrawdownPeriod[] {
  const periods: DrawdownPeriod[] = [];
  if (dates.length === 0) return periods;
  let peak = equity[0]!;
  let peakAt = 0;
  let troughAt = -1; // −1: at the peak, not under water
  for (let t = 1; t < dates.length; t++) {
    const value = equity[t]!;
    if (value >= peak) {
      if (troughAt >= 0) periods.push(period(dates, peakAt, troughAt, t, peak, equity[troughAt]!));
      peak = value;
      peakAt = t;
      troughAt = -1;
    } else if (troughAt < 0 || value < equity[troughAt]!) {
      troughAt = t;
    }
  }
  if (troughAt >= 0) periods.push(period(dates, peakAt, troughAt, -1, peak, equity[troughAt]!));
  return periods;
}

/** The `count` deepest periods, deepest first (the earlier on equal depths). */
export function worstDrawdowns(dates: readonly string[], equity: ArrayLike<number>, count = 5): DrawdownPeriod[] {
  return drawdownPeriods(dates, equity)
    .map((p, order) => ({ p, order }))
    .sort((a, b) => a.p.depth - b.p.depth || a.order - b.order)
    .slice(0, count)
    .map(({ p }) => p);
}

function period(dates: readonly string[], start: number, trough: number, end: number, peak: number, low: number): DrawdownPeriod {
  return {
    start: dates[start]!,
    trough: dates[trough]!,
    end: end < 0 ? null : dates[end]!,
    depth: low / peak - 1,
    days: calendarDaysBetween(dates[start]!, end < 0 ? dates.at(-1)! : dates[end]!),
  };
}
