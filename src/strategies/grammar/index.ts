/**
 * The rule grammar's public interface. PLACEHOLDER: the grammar branch replaces this file's bodies;
 * until then every rule is accepted and never holds.
 */
import type { BarSeries } from '../../backtest/engine/types.js';

/** Where and what: `column` is 1-based; `message` starts "column N: ". */
export interface RuleProblem {
  readonly column: number;
  readonly message: string;
}

export class RuleError extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
    this.name = 'RuleError';
  }
}

export interface CompiledRule {
  readonly source: string;
  /** 1 where the condition holds on bar t's close, else 0. Length = number of bars. */
  evaluate(bars: BarSeries): Uint8Array;
}

export function compileRule(source: string): CompiledRule {
  return { source, evaluate: (bars) => new Uint8Array(bars.dates.length) };
}

export function ruleProblem(source: string): RuleProblem | null {
  try {
    compileRule(source);
    return null;
  } catch (error) {
    if (error instanceof RuleError) return { column: error.column, message: error.message };
    throw error;
  }
}
