/**
 * The compiler: a checked tree becomes a tree of closures over whole columns. Each closure fills a new typed array
 * in one loop (a number node a Float64Array, or a plain number for a constant; a condition node a Uint8Array of
 * 0/1), so a rule costs a few passes over the bars per node, with no per-bar interpretation. Identical
 * subexpressions (same canonical text) are computed once per evaluation. Nothing writes into the bars.
 */
import type { BarSeries } from '../../engine/types.js';
import { canonicalKey, type ArithmeticOperator, type ComparisonOperator, type Node } from './ast.js';
import { literalValue } from './check.js';
import { FUNCTION_BY_NAME } from './functions.js';

/** A column, or a constant standing for a column of that value. */
type Value = Float64Array | number;

interface Context {
  readonly bars: BarSeries;
  readonly length: number;
  readonly cache: Map<string, unknown>;
}

type NumberNode = (context: Context) => Value;
type ConditionNode = (context: Context) => Uint8Array;

/** Subexpression values by canonical text, for one set of bars: rules evaluated on those bars may share it. */
export type SubexpressionCache = Map<string, unknown>;

/**
 * The evaluator of a checked rule (checkRule passed: the root is a condition, every name and call is valid).
 * `cache` must only ever have seen these same bars; values in it are never written to once made.
 */
export function compileTree(root: Node): (bars: BarSeries, cache?: SubexpressionCache) => Uint8Array {
  const evaluate = condition(root);
  return (bars, cache = new Map()) => evaluate({ bars, length: bars.close.length, cache });
}

function memo<T>(node: Node, compute: (context: Context) => T): (context: Context) => T {
  const key = canonicalKey(node);
  return (context) => {
    if (context.cache.has(key)) return context.cache.get(key) as T;
    const value = compute(context);
    context.cache.set(key, value);
    return value;
  };
}

function number(node: Node): NumberNode {
  switch (node.kind) {
    case 'number': {
      const value = node.value;
      return () => value;
    }
    case 'name': {
      const name = node.name as 'open' | 'high' | 'low' | 'close' | 'volume';
      return (context) => context.bars[name];
    }
    case 'negate': {
      const operand = number(node.operand);
      return memo(node, (context) => arithmetic('-', 0, operand(context), context.length));
    }
    case 'arithmetic': {
      const left = number(node.left);
      const right = number(node.right);
      const op = node.op;
      return memo(node, (context) => arithmetic(op, left(context), right(context), context.length));
    }
    case 'call':
      return call(node) as NumberNode;
    default:
      throw new Error(`not a number node: ${node.kind}`); // unreachable after checkRule
  }
}

function condition(node: Node): ConditionNode {
  switch (node.kind) {
    case 'compare': {
      const left = number(node.left);
      const right = number(node.right);
      const op = node.op;
      return memo(node, (context) => compare(op, left(context), right(context), context.length));
    }
    case 'logic': {
      const left = condition(node.left);
      const right = condition(node.right);
      const both = node.op === 'and';
      return memo(node, (context) => {
        const a = left(context);
        const b = right(context);
        const out = new Uint8Array(context.length);
        if (both) for (let i = 0; i < out.length; i++) out[i] = a[i]! & b[i]!;
        else for (let i = 0; i < out.length; i++) out[i] = a[i]! | b[i]!;
        return out;
      });
    }
    case 'not': {
      // Plain negation of the 0/1 result: not (x < 30) holds where x < 30 does not, warm-up bars included.
      const operand = condition(node.operand);
      return memo(node, (context) => {
        const a = operand(context);
        const out = new Uint8Array(context.length);
        for (let i = 0; i < out.length; i++) out[i] = a[i]! ^ 1;
        return out;
      });
    }
    case 'call':
      return call(node) as ConditionNode;
    default:
      throw new Error(`not a condition node: ${node.kind}`); // unreachable after checkRule
  }
}

function call(node: Extract<Node, { kind: 'call' }>): (context: Context) => Float64Array | Uint8Array {
  const fn = FUNCTION_BY_NAME.get(node.name)!;
  const seriesArgs: NumberNode[] = [];
  const numbers: number[] = [];
  fn.params.forEach((param, i) => {
    if (param.kind === 'series') seriesArgs.push(number(node.args[i]!));
    else numbers.push(literalValue(node.args[i]!)!);
  });
  const argsKey = node.args.map(canonicalKey).join(',');
  return memo(node, (context) => {
    const series = seriesArgs.map((arg) => column(arg(context), context.length));
    const result = fn.compute({
      series,
      numbers,
      shared: (tag, make) => {
        const key = `${tag}(${argsKey})`;
        if (!context.cache.has(key)) context.cache.set(key, make());
        return context.cache.get(key) as ReturnType<typeof make>;
      },
    });
    // An indicator over huge values can overflow (the sum inside an average); as with arithmetic, that is no value.
    return result instanceof Float64Array && !series.includes(result) ? withoutInfinities(result) : result;
  });
}

/** Replaces ±Infinity by NaN, in place, in a column the indicator made for this evaluation. */
function withoutInfinities(values: Float64Array): Float64Array {
  for (let t = 0; t < values.length; t++) if (values[t] === Infinity || values[t] === -Infinity) values[t] = NaN;
  return values;
}

/** A constant as a column (functions take columns). */
function column(value: Value, length: number): Float64Array {
  return typeof value === 'number' ? new Float64Array(length).fill(value) : value;
}

/**
 * a op b, element by element. Division by zero is NaN, and so is any result that is not finite (an overflow), so
 * every number a rule computes is finite or NaN. A constant operand becomes a column (simple loops, no branches).
 */
function arithmetic(op: ArithmeticOperator, a: Value, b: Value, length: number): Value {
  if (typeof a === 'number' && typeof b === 'number') return finite(apply(op, a, b));
  const x = column(a, length);
  const y = column(b, length);
  const out = new Float64Array(length);
  switch (op) {
    case '+':
      for (let i = 0; i < length; i++) out[i] = x[i]! + y[i]!;
      break;
    case '-':
      for (let i = 0; i < length; i++) out[i] = x[i]! - y[i]!;
      break;
    case '*':
      for (let i = 0; i < length; i++) out[i] = x[i]! * y[i]!;
      break;
    case '/':
      for (let i = 0; i < length; i++) out[i] = y[i] === 0 ? NaN : x[i]! / y[i]!;
      break;
  }
  for (let i = 0; i < length; i++) {
    const v = out[i]!;
    if (v - v !== 0) out[i] = NaN; // ±Infinity − itself is NaN, as is NaN − NaN
  }
  return out;
}

function apply(op: ArithmeticOperator, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? NaN : a / b;
  }
}

function finite(value: number): number {
  return Number.isFinite(value) ? value : NaN;
}

/** The same comparison with its operands swapped: c < x is x > c. */
const MIRRORED: Readonly<Record<ComparisonOperator, ComparisonOperator>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };

/** 1 where a op b holds; any comparison with NaN is false (0), "!=" included. */
function compare(op: ComparisonOperator, a: Value, b: Value, length: number): Uint8Array {
  if (typeof a === 'number' && typeof b === 'number') return new Uint8Array(length).fill(holds(op, a, b) ? 1 : 0);
  if (typeof a === 'number') return compareToConstant(MIRRORED[op], b as Float64Array, a);
  if (typeof b === 'number') return compareToConstant(op, a, b);
  const out = new Uint8Array(length);
  switch (op) {
    case '<':
      for (let i = 0; i < length; i++) out[i] = a[i]! < b[i]! ? 1 : 0;
      break;
    case '<=':
      for (let i = 0; i < length; i++) out[i] = a[i]! <= b[i]! ? 1 : 0;
      break;
    case '>':
      for (let i = 0; i < length; i++) out[i] = a[i]! > b[i]! ? 1 : 0;
      break;
    case '>=':
      for (let i = 0; i < length; i++) out[i] = a[i]! >= b[i]! ? 1 : 0;
      break;
    case '==':
      for (let i = 0; i < length; i++) out[i] = a[i] === b[i] ? 1 : 0;
      break;
    case '!=':
      for (let i = 0; i < length; i++) out[i] = a[i]! < b[i]! || a[i]! > b[i]! ? 1 : 0;
      break;
  }
  return out;
}

/** The common "rsi(close, 14) < 30": a column against a constant. */
function compareToConstant(op: ComparisonOperator, a: Float64Array, c: number): Uint8Array {
  const length = a.length;
  const out = new Uint8Array(length);
  switch (op) {
    case '<':
      for (let i = 0; i < length; i++) out[i] = a[i]! < c ? 1 : 0;
      break;
    case '<=':
      for (let i = 0; i < length; i++) out[i] = a[i]! <= c ? 1 : 0;
      break;
    case '>':
      for (let i = 0; i < length; i++) out[i] = a[i]! > c ? 1 : 0;
      break;
    case '>=':
      for (let i = 0; i < length; i++) out[i] = a[i]! >= c ? 1 : 0;
      break;
    case '==':
      for (let i = 0; i < length; i++) out[i] = a[i] === c ? 1 : 0;
      break;
    case '!=':
      for (let i = 0; i < length; i++) out[i] = a[i]! < c || a[i]! > c ? 1 : 0;
      break;
  }
  return out;
}

function holds(op: ComparisonOperator, a: number, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '==':
      return a === b;
    case '!=':
      return a < b || a > b;
  }
}
