/**
 * The function table over series with missing values: every indicator of a series with k leading NaN is NaN on
 * those bars and, after them, exactly the indicator of the rest (it starts at the first finite value); a NaN in
 * the middle restarts it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { macd } from '../../engine/indicators.js';
import { FUNCTIONS, type FunctionSpec } from './functions.js';

const NUMBER_FUNCTIONS = FUNCTIONS.filter((f) => f.result === 'number');
/** Smallest valid literal arguments of each function, plus one (macd: fast 2, slow 4; bbands width 2). */
const ARGS: Readonly<Record<string, number[]>> = { macd: [2, 4], bbands_upper: [3, 2], bbands_lower: [3, 2] };

function run(fn: FunctionSpec, x: Float64Array): Float64Array {
  const numbers = ARGS[fn.name] ?? [3];
  return fn.compute({ series: [x], numbers, shared: (_tag, make) => make() }) as Float64Array;
}

const finiteSeries = fc.array(fc.double({ min: 1, max: 1000, noNaN: true }), { minLength: 0, maxLength: 40 });

describe('indicators over series with missing values', () => {
  it.each(NUMBER_FUNCTIONS.map((f) => [f.name, f] as const))('%s starts at the first finite value', (_name, fn) => {
    fc.assert(
      fc.property(fc.nat(10), finiteSeries, (k, values) => {
        const tail = Float64Array.from(values);
        const padded = Float64Array.from([...Array<number>(k).fill(NaN), ...values]);
        const out = run(fn, padded);
        expect(Array.from(out.subarray(0, k)).every(Number.isNaN)).toBe(true);
        expect(Array.from(out.subarray(k))).toEqual(Array.from(run(fn, tail)));
      }),
      { numRuns: 100 },
    );
  });

  it.each(NUMBER_FUNCTIONS.map((f) => [f.name, f] as const))('%s restarts after a gap', (_name, fn) => {
    fc.assert(
      fc.property(finiteSeries, finiteSeries, (before, after) => {
        const joined = Float64Array.from([...before, NaN, ...after]);
        const out = run(fn, joined);
        expect(Array.from(out.subarray(0, before.length))).toEqual(Array.from(run(fn, Float64Array.from(before))));
        expect(out[before.length]).toBeNaN();
        expect(Array.from(out.subarray(before.length + 1))).toEqual(Array.from(run(fn, Float64Array.from(after))));
      }),
      { numRuns: 100 },
    );
  });

  it('macd is the engine’s MACD line, bar for bar', () => {
    fc.assert(
      fc.property(finiteSeries, (values) => {
        const x = Float64Array.from(values);
        const macdSpec = NUMBER_FUNCTIONS.find((f) => f.name === 'macd')!;
        expect(Array.from(run(macdSpec, x))).toEqual(Array.from(macd(x, 2, 4, 3).line));
      }),
    );
  });
});
