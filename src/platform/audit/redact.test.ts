import { describe, expect, it } from 'vitest';
import { maskEmail, redact } from './redact.js';

describe('maskEmail', () => {
  it.each([
    ['jane.doe@example.com', 'j***@example.com'],
    ['j@example.com', 'j***@example.com'],
    ['Jane+alerts@Mail.Example.CO.UK', 'J***@Mail.Example.CO.UK'],
    ['from ann@example.com to bo@example.org.', 'from a***@example.com to b***@example.org.'],
    ['<jane@example.com>', '<j***@example.com>'],
    ['jöhn@exämple.de', 'j***@exämple.de'],
    ['no address here', 'no address here'],
    ['user@localhost', 'user@localhost'],
    ['@example.com', '@example.com'],
    ['', ''],
  ])('%j → %j', (text, expected) => {
    expect(maskEmail(text)).toBe(expected);
  });
});

describe('redact', () => {
  it.each<[string, unknown, unknown]>([
    ['keeps plain values', { action: 'login', attempts: 3, ok: true, none: null }, { action: 'login', attempts: 3, ok: true, none: null }],
    ['masks emails in strings', { email: 'jane@example.com' }, { email: 'j***@example.com' }],
    ['drops tokens', { token: 't', sessionToken: 't', refresh_token: 't', kept: 1 }, { kept: 1 }],
    ['drops challenges and cookies', { challenge: 'c', expectedChallenge: 'c', cookie: 'c', 'set-cookie': 'c', kept: 1 }, { kept: 1 }],
    ['drops credential proofs', { signature: 's', attestationObject: 'a', clientDataJSON: 'c', client_data: 'c', kept: 1 }, { kept: 1 }],
    ['drops secrets, passwords and authorization', { secret: 's', password: 'p', passphrase: 'p', Authorization: 'a', kept: 1 }, { kept: 1 }],
    ['drops ids that are credentials', { session_id: 's', sessionId: 's', apiKey: 'k', api_key: 'k', key_id: 'k', kept: 1 }, { kept: 1 }],
    [
      'keeps nesting and arrays',
      { user: { email: 'bo@example.org', cookie: 'x', devices: [{ label: 'phone', token: 'x' }, 'c@example.net'] } },
      { user: { email: 'b***@example.org', devices: [{ label: 'phone' }, 'c***@example.net'] } },
    ],
    ['masks emails used as keys', { 'ann@example.com': 'invited' }, { 'a***@example.com': 'invited' }],
    ['drops functions and symbols', { run: () => 1, tag: Symbol('x'), kept: 1 }, { kept: 1 }],
    ['takes dates in their JSON form', { at: new Date('2026-01-02T03:04:05.000Z') }, { at: '2026-01-02T03:04:05.000Z' }],
    ['writes big integers as decimal strings', { bytes: 9_007_199_254_740_993n }, { bytes: '9007199254740993' }],
    ['passes a bare string through maskEmail', 'mail jane@example.com', 'mail j***@example.com'],
    ['passes numbers through', 42, 42],
  ])('%s', (_name, input, expected) => {
    expect(redact(input)).toEqual(expected);
  });

  it('keeps an object referenced twice, and drops only the reference that closes a cycle', () => {
    const account = { plan: 'pro' };
    const node: Record<string, unknown> = { name: 'root', before: account, after: account };
    node.self = node;

    expect(redact(node)).toEqual({ name: 'root', before: { plan: 'pro' }, after: { plan: 'pro' } });
  });

  it('keeps a `__proto__` key from parsed input as data', () => {
    const redacted = redact(JSON.parse('{"__proto__": {"polluted": true}, "token": "t"}')) as object;

    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('returns a copy and leaves the input untouched', () => {
    const input = { email: 'jane@example.com', token: 't', nested: { cookie: 'c' } };
    const before = structuredClone(input);

    redact(input);

    expect(input).toEqual(before);
  });
});
