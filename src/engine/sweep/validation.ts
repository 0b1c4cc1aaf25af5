/**
 * Out-of-sample checks of a sweep's best cell: a split of the bars into an in-sample and an out-of-sample part, and
 * walk-forward windows whose out-of-sample runs are stitched into one equity curve (docs/backtesting.md).
 */
import { EngineError } from '../engine-error.js';
import type { BarSeries } from '../types.js';

export type SweepValidation =
  | { readonly split_date: string }
  | { readonly in_sample_fraction: number }
  | { readonly walk_forward: { readonly windows: number; readonly in_sample_fraction: number } };

/** Bar indices [start, end). */
export interface BarRange {
  readonly start: number;
  readonly end: number;
}

export interface WalkForwardWindow {
  readonly inSample: BarRange;
  readonly outOfSample: BarRange;
}

/** The bars with index in [start, end): views on the same columns, no copy. */
export function sliceBars(bars: BarSeries, start: number, end: number): BarSeries {
  return {
    dates: bars.dates.slice(start, end),
    open: bars.open.subarray(start, end),
    high: bars.high.subarray(start, end),
    low: bars.low.subarray(start, end),
    close: bars.close.subarray(start, end),
    volume: bars.volume.subarray(start, end),
  };
}

/**
 * The first out-of-sample bar of a split: the first bar on or after split_date, or floor(n · in_sample_fraction).
 * Each side needs at least 2 bars, else EngineError `invalid_validation`.
 */
export function splitIndex(dates: readonly string[], validation: { split_date: string } | { in_sample_fraction: number }): number {
  const n = dates.length;
  let index: number;
  if ('split_date' in validation) {
    index = dates.findIndex((date) => date >= validation.split_date);
    if (index === -1) index = n;
  } else {
    const f = validation.in_sample_fraction;
    if (!(f > 0 && f < 1)) refuse('validation.in_sample_fraction', `in_sample_fraction must be between 0 and 1 (exclusive); got ${f}.`);
    index = Math.floor(n * f);
  }
  if (index < 2 || n - index < 2) {
    const field = 'split_date' in validation ? 'validation.split_date' : 'validation.in_sample_fraction';
    refuse(field, `The split leaves ${index} in-sample and ${n - index} out-of-sample bars; each side needs at least 2.`);
  }
  return index;
}

/**
 * Rolling windows over n bars: out-of-sample length L = floor(n / (N + f / (1 − f))), in-sample length
 * I = floor(L · f / (1 − f)), the r = n − (N · L + I) bars left over dropped at the start; window k has
 * in-sample [r + k·L, r + k·L + I) and out-of-sample [r + k·L + I, r + (k + 1)·L + I). Each needs at least 2 bars,
 * else EngineError `invalid_validation`.
 */
export function walkForwardWindows(n: number, windows: number, inSampleFraction: number): WalkForwardWindow[] {
  if (!(Number.isInteger(windows) && windows >= 2 && windows <= 50)) {
    refuse('validation.walk_forward.windows', `walk_forward.windows must be an integer from 2 to 50; got ${windows}.`);
  }
  const f = inSampleFraction;
  if (!(f > 0 && f < 1)) {
    refuse('validation.walk_forward.in_sample_fraction', `walk_forward.in_sample_fraction must be between 0 and 1 (exclusive); got ${f}.`);
  }
  const ratio = f / (1 - f);
  const outLength = Math.floor(n / (windows + ratio));
  const inLength = Math.floor(outLength * ratio);
  if (outLength < 2 || inLength < 2) {
    refuse(
      'validation.walk_forward',
      `${n} bars in ${windows} windows give ${inLength} in-sample and ${outLength} out-of-sample bars per window; each needs at least 2.`,
    );
  }
  const dropped = n - (windows * outLength + inLength);
  return Array.from({ length: windows }, (_, k) => {
    const start = dropped + k * outLength;
    return {
      inSample: { start, end: start + inLength },
      outOfSample: { start: start + inLength, end: start + inLength + outLength },
    };
  });
}

function refuse(field: string, message: string): never {
  throw new EngineError('invalid_validation', message, [{ field, message }]);
}
