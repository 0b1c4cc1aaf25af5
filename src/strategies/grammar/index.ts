/**
 * The rule grammar's public interface: entry and exit rules of library strategies, such as
 * `crosses_above(sma(close, 10), sma(close, 30))` or `rsi(close, 14) < 30 and close > sma(close, 200)`.
 * Pure code with no Node APIs (the web app imports it for live error messages). The language, every message and
 * the limits: docs/rule-grammar.md.
 *
 * Pipeline: tokens.ts (lexer) → parse.ts (recursive descent → ast.ts) → check.ts (names, arity, literals, types,
 * using the function table in functions.ts) → compile.ts (closures over typed-array columns). Never eval'd.
 */
import type { BarSeries } from '../../engine/types.js';
import { checkRule } from './check.js';
import { compileTree, type SubexpressionCache } from './compile.js';
import { parseRule } from './parse.js';
import { MAX_SOURCE_LENGTH, RuleError, ruleError, type RuleProblem } from './problem.js';

export { RuleError, type RuleProblem } from './problem.js';

export interface CompiledRule {
  readonly source: string;
  /**
   * 1 where the condition holds on bar t's close, else 0 (warm-up bars and NaN operands make a comparison 0).
   * Length = number of bars. Reads the bars, never writes them; the same bars give the same array.
   */
  evaluate(bars: BarSeries): Uint8Array;
}

/**
 * Parses, checks and compiles `source`; throws RuleError (only) for any text that is not a valid rule.
 * Bounded work for any input: at most 1,000 characters, 50 levels of nesting and 100 function calls.
 */
export function compileRule(source: string): CompiledRule {
  if (typeof source !== 'string') throw ruleError(1, 'a rule must be text');
  if (source.length > MAX_SOURCE_LENGTH) {
    throw ruleError(MAX_SOURCE_LENGTH + 1, `a rule is at most ${MAX_SOURCE_LENGTH} characters long (this one has ${source.length})`);
  }
  const tree = parseRule(source);
  checkRule(tree);
  const evaluateWith = compileTree(tree);
  const rule: CompiledRule = Object.freeze({ source, evaluate: (bars: BarSeries) => evaluateWith(bars) });
  EVALUATORS.set(rule, evaluateWith);
  return rule;
}

const EVALUATORS = new WeakMap<CompiledRule, (bars: BarSeries, cache: SubexpressionCache) => Uint8Array>();

/**
 * Each rule's `evaluate(bars)` (null for null), computing a subexpression the rules share only once: a strategy's
 * entry and exit rules often name the same averages (`crosses_above(sma(close, 10), sma(close, 30))` and
 * `crosses_below(…)` the same two). Rules must come from compileRule.
 */
export function evaluateRules(bars: BarSeries, rules: readonly (CompiledRule | null)[]): (Uint8Array | null)[] {
  const cache: SubexpressionCache = new Map();
  return rules.map((rule) => {
    if (rule === null) return null;
    const evaluateWith = EVALUATORS.get(rule);
    if (!evaluateWith) throw new TypeError('evaluateRules takes rules made by compileRule');
    return evaluateWith(bars, cache);
  });
}

/** null when the rule compiles, else the first problem (for request validation and the web editor). */
export function ruleProblem(source: string): RuleProblem | null {
  try {
    compileRule(source);
    return null;
  } catch (error) {
    if (error instanceof RuleError) return { column: error.column, message: error.message };
    throw error;
  }
}
