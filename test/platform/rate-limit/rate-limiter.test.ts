import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseRateLimiter,
  redisRateLimiter,
  type RateLimiter,
} from '../../../src/platform/rate-limit/rate-limiter.js';
import { rateLimit } from '../../../src/platform/http/rate-limit.js';
import { MINUTE } from '../../../src/platform/clock.js';
import { ManualClock } from '../../helpers/clock.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { buildTestApp } from '../../helpers/app.js';

const REDIS_URL = process.env.REDIS_URL?.trim() || undefined;
if (!REDIS_URL && process.env.CI) throw new Error('REDIS_URL is not set: in CI the Redis rate limiter must be tested.');
if (!REDIS_URL) console.warn('\n!! REDIS_URL is not set: the Redis rate-limiter tests are SKIPPED on this run. !!\n');

const rule = { limit: 3, windowMs: MINUTE };

/** The same behaviour, whatever the store: this runs against each. */
function behavesAsAFixedWindowLimiter(make: (clock: ManualClock) => RateLimiter) {
  let clock: ManualClock;
  let limiter: RateLimiter;
  const key = () => `test:${randomBytes(6).toString('hex')}`;

  beforeAll(() => {
    clock = new ManualClock('2026-01-05T12:00:10.000Z');
    limiter = make(clock);
  });
  afterAll(async () => limiter.close());

  it('allows `limit` hits per window, then refuses with the seconds left in the window', async () => {
    const k = key();
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push(await limiter.hit(k, rule));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]!.retryAfterSeconds).toBe(50);
  });

  it('starts counting afresh in the next window', async () => {
    const k = key();
    for (let i = 0; i < 4; i += 1) await limiter.hit(k, rule);
    clock.advance(MINUTE);
    expect(await limiter.hit(k, rule)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts each key on its own', async () => {
    const [a, b] = [key(), key()];
    for (let i = 0; i < 3; i += 1) await limiter.hit(a, rule);
    expect((await limiter.hit(a, rule)).allowed).toBe(false);
    expect((await limiter.hit(b, rule)).allowed).toBe(true);
  });

  it('never lets more than `limit` through under concurrent hits', async () => {
    const k = key();
    const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.hit(k, { limit: 5, windowMs: MINUTE })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });
}

describeEachDialect('database rate limiter', (db) => {
  behavesAsAFixedWindowLimiter((clock) => databaseRateLimiter(db().handle.db, clock));

  it('is shared by two processes on one database', async () => {
    const clock = new ManualClock();
    const first = databaseRateLimiter(db().handle.db, clock);
    const second = databaseRateLimiter(db().openAnother().db, clock);
    expect((await first.hit('shared', { limit: 1, windowMs: MINUTE })).allowed).toBe(true);
    expect((await second.hit('shared', { limit: 1, windowMs: MINUTE })).allowed).toBe(false);
  });

  it('answers 429 rate_limited with Retry-After from a route hook', async () => {
    const clock = new ManualClock('2026-01-05T12:00:00.000Z');
    const app = await buildTestApp(db().handle, { clock });
    app.get('/fixture/limited', { preHandler: rateLimit(app.platform.rateLimiter, 'fixture', { limit: 2, windowMs: MINUTE }) }, async () => ({
      ok: true,
    }));
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push(await app.inject({ url: '/fixture/limited', remoteAddress: '198.51.100.7' }));
    expect(statuses.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    expect(statuses[2]!.json()).toMatchObject({ error: 'rate_limited' });
    expect(statuses[2]!.headers['retry-after']).toBe('60');
    // Another address in the same /24 shares the budget; another /24 does not.
    expect((await app.inject({ url: '/fixture/limited', remoteAddress: '198.51.100.200' })).statusCode).toBe(429);
    expect((await app.inject({ url: '/fixture/limited', remoteAddress: '198.51.101.7' })).statusCode).toBe(200);
    await app.close();
  });
});

(REDIS_URL ? describe : describe.skip)(`redis rate limiter${REDIS_URL ? '' : ' [SKIPPED: REDIS_URL not set]'}`, () => {
  behavesAsAFixedWindowLimiter((clock) => redisRateLimiter(REDIS_URL!, clock));
});

describe('a rate limiter whose store is down', () => {
  it('refuses with 503 rate_limiter_unavailable rather than failing open or crashing', async () => {
    const limiter = redisRateLimiter('redis://127.0.0.1:1', new ManualClock());
    await expect(limiter.hit('k', rule)).rejects.toMatchObject({ status: 503, code: 'rate_limiter_unavailable' });
    await limiter.close().catch(() => undefined);
  });
});
