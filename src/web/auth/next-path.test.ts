import { describe, expect, it } from 'vitest';
import { pathAfterSignIn } from './next-path';

const ORIGIN = 'http://localhost:3000';

describe('the page after sign-in', () => {
  it.each([
    ['/compare', '/compare'],
    ['/devices?tab=1', '/devices?tab=1'],
    [null, '/devices'],
    ['', '/devices'],
    ['compare', '/devices'],
    ['/sign-in?next=/x', '/devices'],
    ['//evil.example/x', '/devices'],
    ['/\\evil.example/x', '/devices'],
    ['https://evil.example/', '/devices'],
  ])('next=%s goes to %s', (next, expected) => {
    expect(pathAfterSignIn(next, ORIGIN)).toBe(expected);
  });
});
