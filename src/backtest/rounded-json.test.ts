import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fractionArray, moneyArray } from '../engine/index.js';
import { JsonBytesWriter, type Rounding } from './rounded-json.js';

const written = (values: ArrayLike<number>, rounding: Rounding) => new JsonBytesWriter(0).roundedArray(values, rounding).bytes().toString('utf8');
const byJson = (values: ArrayLike<number>, rounding: Rounding) => JSON.stringify(rounding === 'money' ? moneyArray(values) : fractionArray(values));

const EDGES = [
  0, -0, 1, -1, 0.005, -0.005, 0.015, 2.675, -0.125, 0.1, 0.2, 0.30000000000000004, 123456.785, 99999.995, 1e-6, -1e-6, 5e-7, 4.9999999e-7,
  1.5e-8, 5e-9, 4.9e-9, 1e-9, 1e-300, 5e-324, -5e-324, 1e12, 9999999999999.99, 1e13, 1e15, 1e16, 2 ** 53, 1e20, 1e21, -1e21, 1.7976931348623157e308,
  Number.NaN, Infinity, -Infinity, 0.99999999, 0.999999995, -0.999999995, 1234567.12345678, 9999999.999999999, 10000000, -0.5, 0.125,
];

describe('JsonBytesWriter.roundedArray: the bytes of JSON.stringify of the rounded array', () => {
  it.each<Rounding>(['money', 'fraction'])('on edge numbers (%s): -0, ties, tiny, huge, 1e21, NaN and ±Infinity (null, as JSON writes them)', (rounding) => {
    expect(written(EDGES, rounding)).toBe(byJson(EDGES, rounding));
    expect(written(Float64Array.from(EDGES), rounding)).toBe(byJson(EDGES, rounding));
  });

  it('writes an empty array and a single value', () => {
    expect(written([], 'money')).toBe('[]');
    expect(written([Number.NaN], 'fraction')).toBe('[null]');
    expect(written([-0], 'money')).toBe('[0]');
  });

  it.each<Rounding>(['money', 'fraction'])('on any double (%s)', (rounding) => {
    fc.assert(fc.property(fc.array(fc.double()), (values) => written(values, rounding) === byJson(values, rounding)), { numRuns: 2000 });
  });

  it.each<Rounding>(['money', 'fraction'])('on equity-like and drawdown-like values (%s)', (rounding) => {
    const values = fc.oneof(
      fc.double({ min: 0, max: 1e7, noNaN: true }),
      fc.double({ min: -1, max: 0, noNaN: true }),
      fc.integer({ min: -1e9, max: 1e9 }).map((k) => k / 100),
      fc.integer({ min: -1e9, max: 1e9 }).map((k) => k / 1e8 + 5e-9),
    );
    fc.assert(fc.property(fc.array(values, { maxLength: 300 }), (array) => written(array, rounding) === byJson(array, rounding)), { numRuns: 2000 });
  });

  it.each<Rounding>(['money', 'fraction'])('on curves with runs of equal values, as a flat equity curve has (%s)', (rounding) => {
    const runs = fc.array(fc.tuple(fc.oneof(fc.double(), fc.constantFrom(...EDGES)), fc.integer({ min: 1, max: 5 })), { maxLength: 60 });
    const curve = (pairs: [number, number][]) => pairs.flatMap(([value, times]) => Array<number>(times).fill(value));
    fc.assert(fc.property(runs, (pairs) => written(curve(pairs), rounding) === byJson(curve(pairs), rounding)), { numRuns: 1000 });
  });

  it('writes text beside the arrays, as UTF-8, and grows past its scratch memory', () => {
    const long = Array.from({ length: 200_000 }, (_, i) => i * 1.37 + 0.001);
    const json = new JsonBytesWriter(0).text('{"name":"é ✓","v":').roundedArray(long, 'money').text('}').bytes().toString('utf8');
    expect(json).toBe(`{"name":"é ✓","v":${byJson(long, 'money')}}`);
  });

  it('stringArray: the bytes of JSON.stringify, escapes and non-ASCII included', () => {
    const strings = ['2020-01-02', '', 'a"b', 'back\\slash', 'tab\there', '\u0000\u001f', '\u007f', 'é', '✓ ok', '\ud800 lone', '😀', '</script>'];
    expect(new JsonBytesWriter(0).stringArray(strings).bytes().toString('utf8')).toBe(JSON.stringify(strings));
    expect(new JsonBytesWriter(0).stringArray([]).bytes().toString('utf8')).toBe('[]');
    const many = Array.from({ length: 50_000 }, (_, i) => `d${i}✓"`);
    expect(new JsonBytesWriter(0).stringArray(many).bytes().toString('utf8')).toBe(JSON.stringify(many));
  });

  it('a writer started while another is unfinished writes into memory of its own', () => {
    const outer = new JsonBytesWriter(0).text('{"a":');
    const inner = new JsonBytesWriter(0).text('"inner"').roundedArray([1.5, 2], 'money').bytes();
    const json = outer.raw(inner).text('}').bytes().toString('utf8');
    expect(json).toBe('{"a":"inner"[1.5,2]}');
    expect(new JsonBytesWriter(0).text('after').bytes().toString('utf8')).toBe('after');
  });
});
