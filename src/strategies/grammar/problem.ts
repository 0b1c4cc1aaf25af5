/** The one error type of the grammar: a 1-based column and a message "column N: <what>". */

/** Where and what: `column` is 1-based; `message` starts "column N: ". */
export interface RuleProblem {
  readonly column: number;
  readonly message: string;
}

/** Thrown by compileRule; `message` is the whole "column N: <what>" text (as RuleProblem.message). */
export class RuleError extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
    this.name = 'RuleError';
  }
}

/** A RuleError at `column` whose message is "column N: " + what. */
export function ruleError(column: number, what: string): RuleError {
  return new RuleError(column, `column ${column}: ${what}`);
}

/** The limits that keep any input cheap: see docs/rule-grammar.md "Limits". */
export const MAX_SOURCE_LENGTH = 1000;
export const MAX_DEPTH = 50;
export const MAX_CALLS = 100;
