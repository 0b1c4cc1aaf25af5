/**
 * The function table: each function's name, arguments (kind, label for messages, bounds) and implementation over
 * whole columns. Indicators are the engine's (src/engine/indicators.ts, exact window sums included), so a rule and a
 * template that say the same thing compute the same numbers.
 */
import { bollinger, ema, highest, lowest, rsi, sma } from '../../engine/indicators.js';

/** A series expression; a whole-number literal within bounds; a number literal in (above, max]. */
export type Param =
  | { readonly kind: 'series'; readonly label: string }
  | { readonly kind: 'period'; readonly label: string; readonly min: number; readonly max: number }
  | { readonly kind: 'width'; readonly label: string; readonly above: number; readonly max: number };

/** What an implementation gets: its series arguments, its literal arguments, and a per-evaluation memo. */
export interface Inputs {
  readonly series: readonly Float64Array[];
  readonly numbers: readonly number[];
  /** The value of `make()` shared by calls with the same arguments and `tag` within one evaluation. */
  shared<T>(tag: string, make: () => T): T;
}

interface Common {
  readonly name: string;
  readonly params: readonly Param[];
  /** A rule between literal arguments, e.g. macd's fast < slow: the index of the argument to blame and why. */
  readonly relation?: (numbers: readonly number[]) => { readonly arg: number; readonly what: string } | null;
}

export type FunctionSpec =
  | (Common & { readonly result: 'number'; compute(inputs: Inputs): Float64Array })
  | (Common & { readonly result: 'condition'; compute(inputs: Inputs): Uint8Array });

/** Periods of up to 1,000 bars: about four years of daily bars, far beyond any template's default. */
const MAX_PERIOD = 1000;
const series = (label = 'series'): Param => ({ kind: 'series', label });
const period = (min: number, label = 'period'): Param => ({ kind: 'period', label, min, max: MAX_PERIOD });
const width: Param = { kind: 'width', label: 'width', above: 0, max: 10 };

function indicator(name: string, min: number, apply: (x: Float64Array, p: number) => Float64Array): FunctionSpec {
  return {
    name,
    result: 'number',
    params: [series(), period(min)],
    compute: ({ series: [x], numbers: [p] }) => overFiniteRuns(x!, (run) => apply(run, p!)),
  };
}

function band(name: string, side: 'upper' | 'lower'): FunctionSpec {
  return {
    name,
    result: 'number',
    params: [series(), period(2), width],
    compute: ({ series: [x], numbers: [p, k], shared }) =>
      shared('bbands', () => overFiniteRunsAll(x!, (run) => bollinger(run, p!, k!)))[side],
  };
}

function cross(name: string, direction: 'above' | 'below'): FunctionSpec {
  return {
    name,
    result: 'condition',
    params: [series('first series'), series('second series')],
    compute: ({ series: [a, b] }) => (direction === 'above' ? crossesAbove(a!, b!) : crossesBelow(a!, b!)),
  };
}

export const FUNCTIONS: readonly FunctionSpec[] = [
  indicator('sma', 1, sma),
  indicator('ema', 1, (x, p) => ema(x, p)),
  indicator('rsi', 2, rsi),
  {
    name: 'macd',
    result: 'number',
    params: [series(), period(1, 'fast period'), period(2, 'slow period')],
    relation: ([fast, slow]) =>
      fast! < slow! ? null : { arg: 1, what: `the fast period of macd (${fast}) must be below its slow period (${slow})` },
    compute: ({ series: [x], numbers: [fast, slow] }) => overFiniteRuns(x!, (run) => macdLine(run, fast!, slow!)),
  },
  band('bbands_upper', 'upper'),
  band('bbands_lower', 'lower'),
  indicator('highest', 1, highest),
  indicator('lowest', 1, lowest),
  // DESIGN.md: crosses_above(a, b) at t is a[t−1] <= b[t−1] and a[t] > b[t]; crosses_below mirrors it.
  cross('crosses_above', 'above'),
  cross('crosses_below', 'below'),
];

export const FUNCTION_BY_NAME: ReadonlyMap<string, FunctionSpec> = new Map(FUNCTIONS.map((f) => [f.name, f]));

/**
 * The MACD line, ema(fast) − ema(slow), NaN until the slow EMA is defined (index slow − 1): the same numbers as the
 * engine's macd(...).line (both EMAs seeded with the first value), without computing a signal line nobody asked for.
 */
function macdLine(values: Float64Array, fast: number, slow: number): Float64Array {
  const fastEma = ema(values, fast);
  const slowEma = ema(values, slow);
  const line = new Float64Array(values.length);
  for (let i = 0; i < line.length; i++) line[i] = fastEma[i]! - slowEma[i]!;
  return line;
}

/**
 * DESIGN.md: crosses_above(a, b) at t is a[t−1] <= b[t−1] and a[t] > b[t]; never at t = 0. A NaN on either side at
 * t − 1 or t makes a comparison false, so no crossing is reported during a warm-up.
 */
function crossesAbove(a: Float64Array, b: Float64Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let t = 1; t < a.length; t++) out[t] = a[t - 1]! <= b[t - 1]! && a[t]! > b[t]! ? 1 : 0;
  return out;
}

/** The mirror: a[t−1] >= b[t−1] and a[t] < b[t]. */
function crossesBelow(a: Float64Array, b: Float64Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let t = 1; t < a.length; t++) out[t] = a[t - 1]! >= b[t - 1]! && a[t]! < b[t]! ? 1 : 0;
  return out;
}

/**
 * The engine's indicators expect finite input. A rule's series may have NaN (an indicator's warm-up, as in
 * ema(macd(close, 12, 26), 9), or a division by zero): the indicator runs on each maximal run of finite values as
 * if it were a series of its own, and is NaN elsewhere. So ema of the MACD line starts at the line's first value
 * (the engine's macd signal line does the same), and a gap restarts the warm-up instead of poisoning what follows.
 */
export function overFiniteRuns(values: Float64Array, apply: (run: Float64Array) => Float64Array): Float64Array {
  return overFiniteRunsAll(values, (run) => ({ value: apply(run) })).value;
}

function overFiniteRunsAll<K extends string>(
  values: Float64Array,
  apply: (run: Float64Array) => Readonly<Record<K, Float64Array>>,
): Readonly<Record<K, Float64Array>> {
  const n = values.length;
  let first = 0;
  while (first < n && !Number.isFinite(values[first]!)) first++;
  let end = first;
  while (end < n && Number.isFinite(values[end]!)) end++;
  if (first === 0 && end === n) return apply(values); // the usual case: finite throughout
  // Every key of the result, NaN wherever no run writes (the keys come from one application to an empty run).
  const keys = Object.keys(apply(new Float64Array(0))) as K[];
  const result = Object.fromEntries(keys.map((key) => [key, new Float64Array(n).fill(NaN)])) as Record<K, Float64Array>;
  for (let from = first; from < n; ) {
    let to = from;
    while (to < n && Number.isFinite(values[to]!)) to++;
    const part = apply(values.subarray(from, to));
    for (const key of keys) result[key].set(part[key], from);
    from = to;
    while (from < n && !Number.isFinite(values[from]!)) from++;
  }
  return result;
}
