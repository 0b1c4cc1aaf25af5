/**
 * bollinger_reversion in one pass: the exact rolling window sum (the middle band), each window's deviation from
 * its mean (the lower band), the band crossings, the next-open fills, the equity, its
 * drawdown, the lowest drawdown and the sum of daily returns, bar by bar, with no intermediate arrays and no
 * allocation per bar. Byte-identical to the generic path (bollinger, signals.ts, simulate, computeMetrics): every value
 * below is computed by the same operations in the same order (fused.test.ts holds it to that).
 */
import { RENORMALISE } from '../indicators.js';
import { ENTER, EXIT } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { ExecutionModel } from '../execution/model.js';
import { FusedAccount } from './account.js';
import { windowSumThrough } from './window-sum.js';

/** null when the generic path should run instead (periods that are not whole numbers ≥ 1, too few bars to trade). */
export function bollingerReversionRun(bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel): FusedAccount | null {
  const { close } = bars;
  const n = close.length;
  const period = params.period!;
  const width = params.std_dev!;
  if (!Number.isInteger(period) || period < 1) return null;
  // The bands are defined from bar period − 1; the first crossing can be on bar `first`, the first fill after it.
  const first = period;
  if (n <= first) return null;

  // As indicators.ts bollinger: middle = the window sum / period (rollingSums), lower = middle − deviation × width.
  const start = windowSumThrough(close, period, first);
  let hi = start.hi;
  let lo = start.lo;
  let renormalise = start.nextRenormalise;
  let middleBefore = (hi + lo) / period;
  let lowerBefore = middleBefore - deviation(close, first - 1, period, middleBefore) * width;

  const account = new FusedAccount(bars, initialCapital, first, model);
  let pending = 0; // the previous close's signal
  for (let t = first; t < n; t++) {
    const x = account.step(t, pending); // the fill at this bar's open, the equity on its close
    // The window sum (as indicators.ts rollingSums), the bands and this close's signal (as signals.ts).
    if (t === renormalise) {
      const s = hi + lo;
      const b = s - hi;
      lo = hi - (s - b) + (lo - b);
      hi = s;
      renormalise += RENORMALISE;
    }
    const y = close[t - period]!;
    const d = x - y;
    const bd = d - x;
    const ed = x - (d - bd) - (y + bd);
    const sum = hi + d;
    const bs = sum - hi;
    lo += hi - (sum - bs) + (d - bs) + ed;
    hi = sum;
    const middle = (hi + lo) / period;
    const lower = middle - deviation(close, t, period, middle) * width;
    const closeBefore = close[t - 1]!;
    pending = (closeBefore >= lowerBefore && x < lower ? ENTER : 0) | (closeBefore <= middleBefore && x > middle ? EXIT : 0);
    lowerBefore = lower;
    middleBefore = middle;
  }
  return account; // finished by the caller (index.ts)
}

/** The population standard deviation of values[end − period + 1 .. end] around `mean` (as indicators.ts). */
function deviation(values: Float64Array, end: number, period: number, mean: number): number {
  let squares = 0;
  for (let j = end - period + 1; j <= end; j++) {
    const d = values[j]! - mean;
    squares += d * d;
  }
  return Math.sqrt(squares / period);
}
