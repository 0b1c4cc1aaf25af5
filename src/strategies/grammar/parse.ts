/**
 * Recursive descent from the loosest operator to the tightest:
 *
 *   rule       := or END
 *   or         := and ("or" and)*
 *   and        := not ("and" not)*
 *   not        := "not" not | comparison
 *   comparison := additive [("<" | "<=" | ">" | ">=" | "==" | "!=") additive]     (no chains: a < b < c)
 *   additive   := term (("+" | "-") term)*
 *   term       := unary (("*" | "/") unary)*
 *   unary      := "-" unary | primary
 *   primary    := NUMBER | NAME | NAME "(" [or ("," or)*] ")" | "(" or ")"
 *
 * Every recursion into a nested level (parentheses, call arguments, "not", unary minus) counts against
 * MAX_DEPTH, so no input can exhaust the stack; loops handle the flat operator chains.
 */
import type { ComparisonOperator, Node } from './ast.js';
import { MAX_CALLS, MAX_DEPTH, ruleError } from './problem.js';
import { Lexer, describeToken, type Token } from './tokens.js';

const COMPARISONS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=', '==', '!=']);
const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not']);
const EXPECTED_VALUE = 'expected a number, a series such as close, or a function such as sma(close, 10)';

export function parseRule(source: string): Node {
  return new Parser(source).rule();
}

class Parser {
  private readonly lexer: Lexer;
  private depth = 0;
  private calls = 0;

  constructor(source: string) {
    this.lexer = new Lexer(source);
  }

  rule(): Node {
    if (this.lexer.peek().kind === 'end') throw ruleError(1, 'the rule is empty');
    const node = this.or();
    const token = this.lexer.peek();
    if (token.kind !== 'end') {
      const what = token.text === ')' ? 'unexpected ")" (it closes no "(")' : `unexpected ${describeToken(token)}, expected an operator, "and", "or" or the end of the rule`;
      throw ruleError(token.column, what);
    }
    return node;
  }

  private or(): Node {
    let left = this.and();
    while (this.isWord('or')) {
      const column = this.lexer.next().column;
      left = { kind: 'logic', op: 'or', column, left, right: this.and() };
    }
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.isWord('and')) {
      const column = this.lexer.next().column;
      left = { kind: 'logic', op: 'and', column, left, right: this.not() };
    }
    return left;
  }

  private not(): Node {
    if (!this.isWord('not')) return this.comparison();
    const column = this.lexer.next().column;
    return { kind: 'not', column, operand: this.nested(column, () => this.not()) };
  }

  private comparison(): Node {
    const left = this.additive();
    const token = this.lexer.peek();
    if (token.kind !== 'symbol' || !COMPARISONS.has(token.text)) return left;
    this.lexer.next();
    const right = this.additive();
    const after = this.lexer.peek();
    if (after.kind === 'symbol' && COMPARISONS.has(after.text)) {
      throw ruleError(after.column, `comparisons cannot be chained: write a ${token.text} b and b ${after.text} c`);
    }
    return { kind: 'compare', op: token.text as ComparisonOperator, column: token.column, left, right };
  }

  private additive(): Node {
    let left = this.term();
    for (let token = this.lexer.peek(); this.isSymbol(token, '+') || this.isSymbol(token, '-'); token = this.lexer.peek()) {
      this.lexer.next();
      left = { kind: 'arithmetic', op: token.text as '+' | '-', column: token.column, left, right: this.term() };
    }
    return left;
  }

  private term(): Node {
    let left = this.unary();
    for (let token = this.lexer.peek(); this.isSymbol(token, '*') || this.isSymbol(token, '/'); token = this.lexer.peek()) {
      this.lexer.next();
      left = { kind: 'arithmetic', op: token.text as '*' | '/', column: token.column, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Node {
    const token = this.lexer.peek();
    if (!this.isSymbol(token, '-')) return this.primary();
    this.lexer.next();
    return { kind: 'negate', column: token.column, operand: this.nested(token.column, () => this.unary()) };
  }

  private primary(): Node {
    const token = this.lexer.next();
    if (token.kind === 'number') return { kind: 'number', column: token.column, value: token.value };
    if (token.kind === 'name' && !KEYWORDS.has(token.text)) {
      if (!this.isSymbol(this.lexer.peek(), '(')) return { kind: 'name', column: token.column, name: token.text };
      return this.call(token);
    }
    if (this.isSymbol(token, '(')) {
      const inner = this.nested(token.column, () => this.or());
      this.close(token, `expected ")"`);
      return inner;
    }
    if (token.kind === 'end') throw ruleError(token.column, `unexpected end of rule, ${EXPECTED_VALUE}`);
    const hint = token.text === 'not' ? ' ("not" goes before a whole condition: not (a > b))' : `, ${EXPECTED_VALUE}`;
    throw ruleError(token.column, `unexpected ${describeToken(token)}${hint}`);
  }

  private call(name: Token): Node {
    const open = this.lexer.next();
    if (++this.calls > MAX_CALLS) throw ruleError(name.column, `too many function calls (at most ${MAX_CALLS})`);
    const args: Node[] = [];
    if (this.isSymbol(this.lexer.peek(), ')')) this.lexer.next();
    else {
      for (;;) {
        args.push(this.nested(open.column, () => this.or()));
        if (!this.isSymbol(this.lexer.peek(), ',')) break;
        this.lexer.next();
      }
      this.close(open, `expected "," or ")"`);
    }
    return { kind: 'call', column: name.column, name: name.text, args };
  }

  /** Consumes the ")" matching `open`; the end of the rule instead points at the unclosed "(". */
  private close(open: Token, expected: string): void {
    const token = this.lexer.next();
    if (this.isSymbol(token, ')')) return;
    if (token.kind === 'end') throw ruleError(open.column, '"(" is never closed');
    throw ruleError(token.column, `unexpected ${describeToken(token)}, ${expected}`);
  }

  private nested(column: number, parse: () => Node): Node {
    if (++this.depth > MAX_DEPTH) throw ruleError(column, `nested too deeply (at most ${MAX_DEPTH} levels)`);
    const node = parse();
    this.depth--;
    return node;
  }

  private isWord(word: string): boolean {
    const token = this.lexer.peek();
    return token.kind === 'name' && token.text === word;
  }

  private isSymbol(token: Token, symbol: string): boolean {
    return token.kind === 'symbol' && token.text === symbol;
  }
}
