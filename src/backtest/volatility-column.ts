import type { BenchmarkBars } from '../engine/benchmark/index.js';

/**
 * The options replay's σ column (OptionsReplayInput.volatility): a volatility index's close / 100 on each of the
 * underlying's `dates` (ascending), a date the index has no bar on carrying its last close before, NaN before its
 * first bar (the replay opens nothing without a σ).
 */
export function volatilityColumn(dates: readonly string[], index: BenchmarkBars): Float64Array {
  const column = new Float64Array(dates.length);
  let j = -1;
  for (let t = 0; t < dates.length; t++) {
    while (j + 1 < index.dates.length && index.dates[j + 1]! <= dates[t]!) j++;
    column[t] = j < 0 ? NaN : index.close[j]! / 100;
  }
  return column;
}
