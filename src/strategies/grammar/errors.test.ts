/**
 * Invalid rules with their exact message and column (1-based, from the start of the source). The first problem
 * is reported: syntax errors (left to right) before name and type errors (left to right).
 */
import { describe, expect, it } from 'vitest';
import { RuleError, compileRule, ruleProblem } from './index.js';

const VALUE = 'expected a number, a series such as close, or a function such as sma(close, 10)';
const CONDITION = 'a rule must be a condition (a comparison, crosses_above/below, and/or/not), not a number';
const FUNCTIONS = 'sma, ema, rsi, macd, bbands_upper, bbands_lower, highest, lowest, crosses_above, crosses_below';
/** k nested calls: sma(sma(…sma(low,1)…,1),1), 7k + 3 characters. */
const chain = (k: number) => 'sma('.repeat(k) + 'low' + ',1)'.repeat(k);

// prettier-ignore
const CASES: readonly (readonly [rule: string, column: number, what: string])[] = [
  // Empty, and rules that are numbers
  ['', 1, 'the rule is empty'],
  ['  \n ', 1, 'the rule is empty'],
  ['sma(close, 10)', 1, CONDITION],
  ['  close', 3, CONDITION],
  ['30', 1, CONDITION],
  ['close + 1', 1, CONDITION],
  // Names
  ['crosses_above(sma(close, 10), smaa(close, 30))', 31, 'unknown function "smaa" (did you mean "sma"?)'],
  ['SMA(close, 10) > 1', 1, 'unknown function "SMA" (names are lowercase: did you mean "sma"?)'],
  ['foo(close) > 1', 1, `unknown function "foo" (functions: ${FUNCTIONS})`],
  ['closee > 1', 1, 'unknown series "closee" (did you mean "close"?)'],
  ['Close > 1', 1, 'unknown series "Close" (names are lowercase: did you mean "close"?)'],
  ['price > 1', 1, 'unknown series "price" (series: open, high, low, close, volume)'],
  ['sma > 1', 1, 'sma is a function: write sma(series, period)'],
  ['close(1) > 0', 1, 'close is a series, not a function: write close without parentheses'],
  [`${'a'.repeat(50)} > 1`, 1, `unknown series "${'a'.repeat(30)}…" (series: open, high, low, close, volume)`],
  // Argument counts (pointing at the function's name)
  ['close > sma(close)', 9, 'sma takes 2 arguments (series, period), got 1'],
  ['sma(close, 10, 20) > 1', 1, 'sma takes 2 arguments (series, period), got 3'],
  ['macd(close, 12) > 0', 1, 'macd takes 3 arguments (series, fast period, slow period), got 2'],
  ['crosses_above(close)', 1, 'crosses_above takes 2 arguments (first series, second series), got 1'],
  ['rsi() < 30', 1, 'rsi takes 2 arguments (series, period), got 0'],
  // Periods and widths: literals within bounds
  ['sma(close, 10.5) > 1', 12, 'the period of sma must be a whole number, got 10.5'],
  ['sma(close, 0) > 1', 12, 'the period of sma must be from 1 to 1000, got 0'],
  ['sma(close, 1001) > 1', 12, 'the period of sma must be from 1 to 1000, got 1001'],
  ['sma(close, -5) > 1', 12, 'the period of sma must be from 1 to 1000, got -5'],
  ['rsi(close, 1) < 30', 12, 'the period of rsi must be from 2 to 1000, got 1'],
  ['sma(close, 5 + 5) > 1', 12, 'the period of sma must be a number written out, such as 10'],
  ['sma(close, open) > 1', 12, 'the period of sma must be a number written out, such as 10'],
  ['bbands_upper(close, 20, 0) > close', 25, 'the width of bbands_upper must be above 0 and at most 10, got 0'],
  ['bbands_upper(close, 20, 10.5) > close', 25, 'the width of bbands_upper must be above 0 and at most 10, got 10.5'],
  ['bbands_lower(close, 1, 2) < close', 21, 'the period of bbands_lower must be from 2 to 1000, got 1'],
  ['macd(close, 26, 12) > 0', 13, 'the fast period of macd (26) must be below its slow period (12)'],
  ['macd(close, 12, 12) > 0', 13, 'the fast period of macd (12) must be below its slow period (12)'],
  // Types: a condition where a number is needed, and the reverse (pointing at the operand)
  ['sma(close > 1, 10) > 1', 5, 'the series of sma must be a number, not a condition'],
  ['crosses_above(close > 1, open)', 15, 'the first series of crosses_above must be a number, not a condition'],
  ['(close > 1) + 1 > 0', 2, '"+" needs a number on each side, not a condition'],
  ['-(close > 1) < 0', 3, '"-" needs a number, not a condition'],
  ['(close > 1) > 0', 2, '">" compares numbers, not conditions (join conditions with "and" or "or")'],
  ['close and open > 1', 1, '"and" needs a condition on each side, not a number (compare it first, e.g. close > 100)'],
  ['close > 1 or 2', 14, '"or" needs a condition on each side, not a number (compare it first, e.g. close > 100)'],
  ['not close', 5, '"not" needs a condition, not a number'],
  // Syntax: unexpected end, unclosed parentheses (pointing at the "(" left open), stray tokens
  ['close >', 8, `unexpected end of rule, ${VALUE}`],
  ['close > 1 and', 14, `unexpected end of rule, ${VALUE}`],
  ['sma(close,', 11, `unexpected end of rule, ${VALUE}`],
  ['(close > 1', 1, '"(" is never closed'],
  ['((close > 1)', 1, '"(" is never closed'],
  ['sma(close, 10 > 1', 4, '"(" is never closed'],
  ['close > 1)', 10, 'unexpected ")" (it closes no "(")'],
  ['close > 1 open', 11, 'unexpected "open", expected an operator, "and", "or" or the end of the rule'],
  ['close 1', 7, 'unexpected "1", expected an operator, "and", "or" or the end of the rule'],
  ['sma(close 10) > 1', 11, 'unexpected "10", expected "," or ")"'],
  ['(close > 1 open)', 12, 'unexpected "open", expected ")"'],
  ['close > ,', 9, `unexpected ",", ${VALUE}`],
  ['* close > 1', 1, `unexpected "*", ${VALUE}`],
  ['close > and', 9, `unexpected "and", ${VALUE}`],
  ['close > not open', 9, 'unexpected "not" ("not" goes before a whole condition: not (a > b))'],
  ['a < b < c', 7, 'comparisons cannot be chained: write a < b and b < c'],
  ['close < open < high', 14, 'comparisons cannot be chained: write a < b and b < c'],
  ['close == open != 1', 15, 'comparisons cannot be chained: write a == b and b != c'],
  // Characters
  ['close = 1', 7, 'unexpected character "=" (did you mean "=="?)'],
  ['close > 1 && open > 1', 11, 'unexpected character "&" (use "and")'],
  ['close > 1 || open > 1', 11, 'unexpected character "|" (use "or")'],
  ['!close', 1, 'unexpected character "!" (use "not", or "!=" for not equal)'],
  ['close > $1', 9, 'unexpected character "$"'],
  ['close > 1 # note', 11, 'unexpected character "#"'],
  ['close > 1 \u{1F4C8}', 11, 'unexpected character "\u{1F4C8}"'],
  ['close > 1e999', 9, 'the number 1e999 is too large'],
  // A syntax error is reported before an earlier name error
  ['smaa(close, 10) >', 18, `unexpected end of rule, ${VALUE}`],
  // Limits
  ['x'.repeat(1001), 1001, 'a rule is at most 1000 characters long (this one has 1001)'],
  ['('.repeat(10_000), 1001, 'a rule is at most 1000 characters long (this one has 10000)'],
  ['('.repeat(1000), 51, 'nested too deeply (at most 50 levels)'],
  [`${'('.repeat(51)}close > 1${')'.repeat(51)}`, 51, 'nested too deeply (at most 50 levels)'],
  [`${chain(51)} > 1`, 204, 'nested too deeply (at most 50 levels)'], // the "(" of the 51st sma: 50 × 4 + 4
  [`${'-'.repeat(60)}close > 0`, 51, 'nested too deeply (at most 50 levels)'],
  [`${'not '.repeat(60)}close > 0`, 201, 'nested too deeply (at most 50 levels)'],
  // 101 calls: two chains of 49 (346 characters each) and "+", then the third sma of chain(3) at 346+1+346+1+8+1
  [`${chain(49)}+${chain(49)}+${chain(3)} > 1`, 703, 'too many function calls (at most 100)'],
];

describe('invalid rules: message and column', () => {
  it.each(CASES)('%j → column %i', (rule, column, what) => {
    const message = `column ${column}: ${what}`;
    expect(ruleProblem(rule)).toEqual({ column, message });
    let thrown: unknown;
    try {
      compileRule(rule);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuleError);
    expect((thrown as RuleError).column).toBe(column);
    expect((thrown as RuleError).message).toBe(message);
  });

  it('accepts the limits themselves', () => {
    expect(ruleProblem(`${'('.repeat(50)}close > 1${')'.repeat(50)}`)).toBeNull();
    expect(ruleProblem(`${chain(50)} > 1`)).toBeNull();
    expect(ruleProblem(`${chain(49)}+${chain(49)}+${chain(2)} > 1`)).toBeNull(); // exactly 100 calls
    const long = `close > 1${' '.repeat(991)}`;
    expect(long.length).toBe(1000);
    expect(ruleProblem(long)).toBeNull();
    expect(ruleProblem('sma(close, 1000) > 1 and rsi(close, 2) < 30 and bbands_upper(close, 2, 10) > 0')).toBeNull();
  });
});
