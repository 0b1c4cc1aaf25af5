import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import type { Clock } from '../clock.js';

export interface RateLimitRule {
  /** Requests allowed per window. */
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  readonly retryAfterSeconds: number;
}

/**
 * Fixed-window counters shared by every process: in the database by default, in Redis when
 * `REDIS_URL` is set. Windows are aligned to the injected clock (`floor(now / windowMs)`), so both
 * stores count the same way and tests move time instead of sleeping.
 */
export interface RateLimiter {
  /** Counts one request under `key` and says whether it is within the rule. */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

function decide(count: number, rule: RateLimitRule, windowStart: number, now: number): RateLimitDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + rule.windowMs - now) / 1000));
  return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), retryAfterSeconds };
}

function windowStartOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

export function databaseRateLimiter(db: Db, clock: Clock): RateLimiter {
  return {
    async hit(key, rule) {
      const now = clock.now().getTime();
      const windowStart = windowStartOf(now, rule.windowMs);
      const started = new Date(windowStart).toISOString();
      // One statement: a new key starts at 1, a key from an older window restarts at 1, else it counts up.
      const row = await db
        .insertInto('rate_limit_counters')
        .values({ key, window_started_at: started, count: 1 })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet((eb) => ({
            count: eb
              .case()
              .when('rate_limit_counters.window_started_at', '=', started)
              .then(eb('rate_limit_counters.count', '+', 1))
              .else(1)
              .end(),
            window_started_at: started,
          })),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return decide(row.count, rule, windowStart, now);
    },
    async close() {},
  };
}

export function redisRateLimiter(url: string, clock: Clock): RateLimiter {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  return {
    async hit(key, rule) {
      const now = clock.now().getTime();
      const windowStart = windowStartOf(now, rule.windowMs);
      const redisKey = `tradelab:rl:${key}:${windowStart}`;
      const [[, count]] = (await redis.multi().incr(redisKey).pexpire(redisKey, rule.windowMs * 2).exec()) as [
        [Error | null, number],
        [Error | null, number],
      ];
      return decide(count, rule, windowStart, now);
    },
    async close() {
      await redis.quit();
    },
  };
}
