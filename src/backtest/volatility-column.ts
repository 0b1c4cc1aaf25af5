import type { BenchmarkBars } from '../engine/benchmark/index.js';

/** How long an index close stays the σ of the dates after it: two weeks covers a weekly index and a holiday. */
export const VOLATILITY_CARRY_DAYS = 14;
const DAY_MS = 86_400_000;

/**
 * The options replay's σ column (OptionsReplayInput.volatility): a volatility index's close / 100 on each of the
 * underlying's `dates` (ascending), a date the index has no bar on carrying its last close before for at most
 * `VOLATILITY_CARRY_DAYS` calendar days; NaN before its first bar and once its last close is older than that (an
 * index that stopped in 2018 does not price 2020: the replay opens nothing without a σ and says so in
 * `skipped_entries.no_volatility`).
 */
export function volatilityColumn(dates: readonly string[], index: BenchmarkBars): Float64Array {
  const column = new Float64Array(dates.length);
  let j = -1;
  for (let t = 0; t < dates.length; t++) {
    while (j + 1 < index.dates.length && index.dates[j + 1]! <= dates[t]!) j++;
    const fresh = j >= 0 && Date.parse(dates[t]!) - Date.parse(index.dates[j]!) <= VOLATILITY_CARRY_DAYS * DAY_MS;
    column[t] = fresh ? index.close[j]! / 100 : NaN;
  }
  return column;
}
