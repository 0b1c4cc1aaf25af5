/**
 * The checker: names, argument counts, literal arguments and their bounds, and types. Every expression is a number
 * (a series over the bars; a literal is a constant series) or a condition (true/false on each bar). Walks the tree
 * left to right and throws the first problem as a RuleError.
 */
import { start, type Node } from './ast.js';
import { FUNCTION_BY_NAME, FUNCTIONS, type FunctionSpec, type Param } from './functions.js';
import { ruleError } from './problem.js';
import { shorten } from './tokens.js';

export type ValueType = 'number' | 'condition';

export const SERIES_NAMES: readonly string[] = ['open', 'high', 'low', 'close', 'volume'];
const SERIES: ReadonlySet<string> = new Set(SERIES_NAMES);

/** Throws unless `node` is a well-formed condition. */
export function checkRule(node: Node): void {
  if (typeOf(node) !== 'condition') {
    throw ruleError(start(node), 'a rule must be a condition (a comparison, crosses_above/below, and/or/not), not a number');
  }
}

function typeOf(node: Node): ValueType {
  switch (node.kind) {
    case 'number':
      return 'number';
    case 'name':
      checkSeriesName(node.name, node.column);
      return 'number';
    case 'call':
      return checkCall(node.name, node.column, node.args);
    case 'negate':
      expect(node.operand, 'number', '"-" needs a number, not a condition');
      return 'number';
    case 'arithmetic':
      expect(node.left, 'number', `"${node.op}" needs a number on each side, not a condition`);
      expect(node.right, 'number', `"${node.op}" needs a number on each side, not a condition`);
      return 'number';
    case 'compare': {
      const what = `"${node.op}" compares numbers, not conditions (join conditions with "and" or "or")`;
      expect(node.left, 'number', what);
      expect(node.right, 'number', what);
      return 'condition';
    }
    case 'logic': {
      const what = `"${node.op}" needs a condition on each side, not a number (compare it first, e.g. close > 100)`;
      expect(node.left, 'condition', what);
      expect(node.right, 'condition', what);
      return 'condition';
    }
    case 'not':
      expect(node.operand, 'condition', '"not" needs a condition, not a number');
      return 'condition';
  }
}

function expect(node: Node, wanted: ValueType, what: string): void {
  if (typeOf(node) !== wanted) throw ruleError(start(node), what);
}

function checkSeriesName(name: string, column: number): void {
  if (SERIES.has(name)) return;
  const fn = FUNCTION_BY_NAME.get(name);
  if (fn) throw ruleError(column, `${name} is a function: write ${signature(fn)}`);
  throw ruleError(column, `unknown series ${quote(name)}${suggestion(name, SERIES_NAMES, 'series')}`);
}

function checkCall(name: string, column: number, args: readonly Node[]): ValueType {
  const fn = FUNCTION_BY_NAME.get(name);
  if (!fn) {
    if (SERIES.has(name)) throw ruleError(column, `${name} is a series, not a function: write ${name} without parentheses`);
    const names = FUNCTIONS.map((f) => f.name);
    throw ruleError(column, `unknown function ${quote(name)}${suggestion(name, names, 'functions')}`);
  }
  if (args.length !== fn.params.length) {
    const labels = fn.params.map((p) => p.label).join(', ');
    throw ruleError(column, `${name} takes ${fn.params.length} arguments (${labels}), got ${args.length}`);
  }
  const numbers: number[] = [];
  fn.params.forEach((param, i) => {
    const arg = args[i]!;
    if (param.kind === 'series') expect(arg, 'number', `the ${param.label} of ${name} must be a number, not a condition`);
    else numbers.push(checkLiteral(arg, param, name));
  });
  const broken = fn.relation?.(numbers);
  if (broken) throw ruleError(start(args[broken.arg]!), broken.what);
  return fn.result;
}

/** A period or width: a number written out (a leading minus allowed, so "-5" is reported as out of range). */
function checkLiteral(arg: Node, param: Exclude<Param, { kind: 'series' }>, fn: string): number {
  const value = literalValue(arg);
  const column = start(arg);
  const what = `the ${param.label} of ${fn}`;
  const example = param.kind === 'period' ? '10' : '2';
  if (value === null) throw ruleError(column, `${what} must be a number written out, such as ${example}`);
  if (param.kind === 'period') {
    if (!Number.isInteger(value)) throw ruleError(column, `${what} must be a whole number, got ${value}`);
    if (value < param.min || value > param.max) throw ruleError(column, `${what} must be from ${param.min} to ${param.max}, got ${value}`);
  } else if (!(value > param.above && value <= param.max)) {
    throw ruleError(column, `${what} must be above ${param.above} and at most ${param.max}, got ${value}`);
  }
  return value;
}

/** The value of a literal argument, or null when the argument is not one. */
export function literalValue(node: Node): number | null {
  if (node.kind === 'number') return node.value;
  if (node.kind === 'negate' && node.operand.kind === 'number') return -node.operand.value;
  return null;
}

function signature(fn: FunctionSpec): string {
  return `${fn.name}(${fn.params.map((p) => p.label).join(', ')})`;
}

function quote(name: string): string {
  return JSON.stringify(shorten(name));
}

/** ' (did you mean "sma"?)' for a near miss, else the list of known names. */
function suggestion(name: string, known: readonly string[], plural: string): string {
  const lower = name.toLowerCase();
  if (known.includes(lower)) return ` (names are lowercase: did you mean ${quote(lower)}?)`;
  if (name.length <= 40) {
    let best: string | null = null;
    let bestDistance = lower.length <= 3 ? 1 : 2; // the largest distance still worth suggesting
    for (const candidate of known) {
      const distance = editDistance(lower, candidate);
      if (distance <= bestDistance && (best === null || distance < bestDistance)) {
        best = candidate;
        bestDistance = distance;
      }
    }
    if (best !== null) return ` (did you mean ${quote(best)}?)`;
  }
  return ` (${plural}: ${known.join(', ')})`;
}

/** Levenshtein distance, two rows; both strings are short (≤ 40 characters here). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
