import type { ReportTrade } from './types.js';

/**
 * The fraction of dates on whose close a position was open: a trade holds from its entry date up to, not including,
 * its exit date (it is bought at an open and sold at an open). null without dates.
 */
export function timeInMarket(dates: readonly string[], trades: readonly ReportTrade[]): number | null {
  if (dates.length === 0) return null;
  // +1 at each entry date, −1 at each exit date; a date is held while the running count is positive.
  const change = new Map<string, number>();
  for (const t of trades) {
    change.set(t.entry_date, (change.get(t.entry_date) ?? 0) + 1);
    change.set(t.exit_date, (change.get(t.exit_date) ?? 0) - 1);
  }
  const moments = [...change.keys()].sort();
  let open = 0;
  let next = 0;
  let held = 0;
  for (const date of dates) {
    while (next < moments.length && moments[next]! <= date) open += change.get(moments[next++]!)!;
    if (open > 0) held++;
  }
  return held / dates.length;
}

/** The most consecutive losing trades (return < 0), trades taken in order of exit date (then as given). */
export function longestLosingStreak(trades: readonly ReportTrade[]): number {
  let longest = 0;
  let current = 0;
  for (const t of byExit(trades)) {
    current = t.return < 0 ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

/** The trades in order of exit date; a stable sort, so trades closed on one date keep their given order. */
export function byExit<T extends ReportTrade>(trades: readonly T[]): T[] {
  return [...trades].sort((a, b) => (a.exit_date < b.exit_date ? -1 : a.exit_date > b.exit_date ? 1 : 0));
}
