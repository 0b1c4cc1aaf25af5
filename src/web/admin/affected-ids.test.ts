import { describe, expect, it } from 'vitest';
import { MAX_AFFECTED, parseAffectedIds, unknownUsersText } from './affected-ids';

const A = '3f2b8c1e-9d4a-4b7e-8c2f-1a5d6e7f8a9b';
const B = '0b6f5a2e-1111-4222-8333-444455556666';

describe('parseAffectedIds', () => {
  it('takes ids one per line or comma-separated, each once, lower case, in the order given', () => {
    expect(parseAffectedIds(`${A}\n${B}`)).toEqual({ ids: [A, B] });
    expect(parseAffectedIds(` ${B}, ${A} ,\n\n${B.toUpperCase()} `)).toEqual({ ids: [B, A] });
  });

  it('refuses an empty list and anything that is not a UUID, naming it', () => {
    expect(parseAffectedIds(' \n, ')).toEqual({ error: expect.stringMatching(/at least one account id/) });
    const wrong = parseAffectedIds(`${A}\nada@example.com, 12345`);
    expect(wrong).toEqual({ error: expect.stringContaining('These are not account ids: “ada@example.com”, “12345”.') });
    expect(parseAffectedIds(`${A.slice(0, 35)}`)).toEqual({ error: expect.stringContaining('This is not an account id') });
    expect(parseAffectedIds('a b c d e')).toEqual({ error: expect.stringContaining('“a”, “b”, “c” and 2 more') });
  });

  it(`refuses more than ${MAX_AFFECTED} ids, the API's limit`, () => {
    const many = Array.from({ length: MAX_AFFECTED + 1 }, (_, at) => `00000000-0000-4000-8000-${String(at).padStart(12, '0')}`);
    expect(parseAffectedIds(many.join('\n'))).toEqual({ error: expect.stringMatching(/^At most 10,000 ids/) });
    expect(parseAffectedIds(many.slice(1).join(','))).toEqual({ ids: many.slice(1) });
  });
});

describe('unknownUsersText', () => {
  it("names the ids from the 400's details, else keeps its message", () => {
    expect(unknownUsersText('Some affected ids name no account.', [{ field: 'body.affected', message: `no account ${A}` }])).toBe(`No account has this id: ${A}. Nothing was sent.`);
    expect(unknownUsersText('Some affected ids name no account.', [])).toBe('Some affected ids name no account.');
  });
});
