/**
 * The lexer: one left-to-right pass over the source, one character at a time (no backtracking regular
 * expressions), so its cost is linear in the source length. Tokens are produced on demand, so the first
 * problem reported is always the leftmost one the parser meets.
 */
import { ruleError } from './problem.js';

export type TokenKind = 'number' | 'name' | 'symbol' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The text as written (for a number, its digits; for 'end', empty). */
  readonly text: string;
  /** 1-based column of the first character (UTF-16 code units, as a text field's selection counts them). */
  readonly column: number;
  /** A number token's value. */
  readonly value: number;
}

/** Two-character operators first, so "<=" is not read as "<" then "=". */
const TWO_CHAR = ['<=', '>=', '==', '!='];
const ONE_CHAR = '+-*/<>(),';

/** Hints for characters people bring from other languages. */
const HINTS: Readonly<Record<string, string>> = {
  '=': ' (did you mean "=="?)',
  '!': ' (use "not", or "!=" for not equal)',
  '&': ' (use "and")',
  '|': ' (use "or")',
};

export class Lexer {
  private position = 0;
  private lookahead: Token | null = null;

  constructor(private readonly source: string) {}

  peek(): Token {
    this.lookahead ??= this.read();
    return this.lookahead;
  }

  next(): Token {
    const token = this.peek();
    this.lookahead = null;
    return token;
  }

  private read(): Token {
    const source = this.source;
    while (this.position < source.length && isSpace(source.charCodeAt(this.position))) this.position++;
    const start = this.position;
    const column = start + 1;
    if (start >= source.length) return { kind: 'end', text: '', column, value: NaN };
    const code = source.charCodeAt(start);
    if (isDigit(code) || (code === DOT && isDigit(source.charCodeAt(start + 1)))) return this.readNumber();
    if (isNameStart(code)) {
      while (this.position < source.length && isNamePart(source.charCodeAt(this.position))) this.position++;
      return { kind: 'name', text: source.slice(start, this.position), column, value: NaN };
    }
    const pair = source.slice(start, start + 2);
    if (TWO_CHAR.includes(pair)) {
      this.position += 2;
      return { kind: 'symbol', text: pair, column, value: NaN };
    }
    const single = source[start]!;
    if (ONE_CHAR.includes(single)) {
      this.position += 1;
      return { kind: 'symbol', text: single, column, value: NaN };
    }
    const character = String.fromCodePoint(source.codePointAt(start)!);
    throw ruleError(column, `unexpected character ${JSON.stringify(character)}${HINTS[character] ?? ''}`);
  }

  /** digits [. digits] [e [+-] digits], or . digits [...]; "1." is 1. */
  private readNumber(): Token {
    const source = this.source;
    const start = this.position;
    this.skipDigits();
    if (source.charCodeAt(this.position) === DOT) {
      this.position++;
      this.skipDigits();
    }
    const e = source.charCodeAt(this.position);
    if (e === LOWER_E || e === UPPER_E) {
      let p = this.position + 1;
      const sign = source.charCodeAt(p);
      if (sign === PLUS || sign === MINUS) p++;
      // Only an exponent when digits follow: otherwise "2e" is the number 2 and then the name "e".
      if (isDigit(source.charCodeAt(p))) {
        this.position = p;
        this.skipDigits();
      }
    }
    const text = source.slice(start, this.position);
    const value = Number(text);
    if (!Number.isFinite(value)) throw ruleError(start + 1, `the number ${shorten(text)} is too large`);
    return { kind: 'number', text, column: start + 1, value };
  }

  private skipDigits(): void {
    while (this.position < this.source.length && isDigit(this.source.charCodeAt(this.position))) this.position++;
  }
}

/** A token as the user wrote it, for messages: `"sma"`, `"("`, or "the end of the rule". */
export function describeToken(token: Token): string {
  return token.kind === 'end' ? 'end of rule' : JSON.stringify(shorten(token.text));
}

/** Long user text cut for messages (a message must stay readable whatever the input). */
export function shorten(text: string, max = 30): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Letters of either case are read (so "SMA" gets a "did you mean" hint); only lowercase names exist. */
function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}
