import { describe, expect, it, vi } from 'vitest';
import { BadRequest } from '../platform/errors.js';

// The mapping of a grammar problem to a 400 is tested against a stand-in grammar that refuses "bad…";
// test/strategies/rule-validation.http.test.ts checks the real grammar over HTTP.
vi.mock('./grammar/index.js', () => ({
  ruleProblem: (source: string) => (source.startsWith('bad') ? { column: 4, message: 'column 4: unexpected end of rule' } : null),
}));
const { checkedRule, normalizeAllowlist, normalizeDescription, normalizeName } = await import('./strategy-fields.js');

function refusal(run: () => unknown): BadRequest {
  try {
    run();
  } catch (error) {
    if (error instanceof BadRequest) return error;
    throw error;
  }
  throw new Error('expected a BadRequest');
}

describe('normalizeAllowlist', () => {
  it.each([
    ['SPY', 'SPY'],
    [' SPY , QQQ ,IWM', 'SPY,QQQ,IWM'],
    ['BRK.B,BF-B,^GSPC', 'BRK.B,BF-B,^GSPC'],
    ['', null],
    ['   ', null],
  ])('%j → %j', (text, stored) => {
    expect(normalizeAllowlist(text)).toBe(stored);
  });

  it('keeps null as no constraint', () => {
    expect(normalizeAllowlist(null)).toBeNull();
  });

  it.each([
    ['spy', '"spy" is not an upper-case ticker'],
    ['SPY,,QQQ', 'empty entry'],
    ['SPY,', 'empty entry'],
    [',SPY', 'empty entry'],
    ['SPY;QQQ', '"SPY;QQQ" is not an upper-case ticker'],
    ['SPY QQQ', '"SPY QQQ" is not an upper-case ticker'],
    ['SPY,QQQ,SPY', 'lists SPY twice'],
    [Array.from({ length: 101 }, (_, i) => `S${i}`).join(','), 'has 101 symbols; at most 100'],
  ])('refuses %j', (text, problem) => {
    const error = refusal(() => normalizeAllowlist(text));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ field: 'body.entry_symbol_allowlist', message: expect.stringContaining(problem) }]);
  });
});

describe('name and description', () => {
  it('trims the name and wants 1–100 characters', () => {
    expect(normalizeName('  Iron fly  ')).toBe('Iron fly');
    expect(normalizeName('x'.repeat(100))).toBe('x'.repeat(100));
    expect(refusal(() => normalizeName('   ')).details).toEqual([{ field: 'body.name', message: expect.any(String) }]);
    expect(refusal(() => normalizeName('x'.repeat(101))).details?.[0]?.field).toBe('body.name');
  });

  it('stores a null description as "" and refuses more than 2000 characters', () => {
    expect(normalizeDescription(null)).toBe('');
    expect(normalizeDescription('  kept as written ')).toBe('  kept as written ');
    expect(refusal(() => normalizeDescription('x'.repeat(2001))).details?.[0]?.field).toBe('body.description');
  });
});

describe('checkedRule', () => {
  it('keeps a valid rule as sent, and a blank one as null', () => {
    expect(checkedRule('entry_rule', ' close > 1')).toBe(' close > 1');
    expect(checkedRule('exit_rule', '  ')).toBeNull();
    expect(checkedRule('exit_rule', null)).toBeNull();
  });

  it('turns the grammar’s problem into 400 invalid_rule with the field, message and column', () => {
    const error = refusal(() => checkedRule('exit_rule', 'bad('));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_rule');
    expect(error.message).toBe('column 4: unexpected end of rule');
    expect(error.details).toEqual([{ field: 'body.exit_rule', message: 'column 4: unexpected end of rule', column: 4 }]);
  });
});
