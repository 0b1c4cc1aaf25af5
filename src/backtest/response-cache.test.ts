import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.js';

describe('ResponseCache', () => {
  it('answers a key from memory after the first time', async () => {
    const cache = new ResponseCache(1000);
    let made = 0;
    const make = async () => `body ${++made}`;
    expect(String(await cache.getOrCreate('a', make))).toBe('body 1');
    expect(String(await cache.getOrCreate('a', make))).toBe('body 1');
    expect(made).toBe(1);
  });

  it('stays within its byte budget, dropping the least recently used first', async () => {
    const cache = new ResponseCache(100);
    const body = (c: string) => async () => c.repeat(25);
    await cache.getOrCreate('a', body('a'));
    await cache.getOrCreate('b', body('b'));
    await cache.getOrCreate('c', body('c'));
    await cache.getOrCreate('a', body('x'));
    await cache.getOrCreate('d', body('d'));
    await cache.getOrCreate('e', body('e'));
    expect(cache.size).toEqual({ entries: 4, bytes: 100 });
    expect(String(await cache.getOrCreate('a', body('z')))).toBe('a'.repeat(25));
    expect(String(await cache.getOrCreate('b', body('y')))).toBe('y'.repeat(25));
  });

  it('does not keep a body larger than a quarter of the budget', async () => {
    const cache = new ResponseCache(100);
    await cache.getOrCreate('big', async () => 'x'.repeat(26));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});
