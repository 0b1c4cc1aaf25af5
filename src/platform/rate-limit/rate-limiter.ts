import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import type { Clock } from '../clock.js';
import { ServiceUnavailable } from '../errors.js';
import { isDatabaseBusy } from '../db/busy.js';
import { sha256Hex } from '../ids.js';
import { compiledOnce } from '../db/compiled-once.js';

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

/** Keys may name an email or an address; only their hash is stored. */
function storedKey(key: string): string {
  return sha256Hex(key);
}

/** A store that does not answer is a 503, never a 500 and never a silent pass. */
async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDatabaseBusy(error)) throw error; // a busy SQLite file is answered as such (503 `busy`, Retry-After)
    const unavailable = new ServiceUnavailable('rate_limiter_unavailable', 'Rate limiting is unavailable right now; try again shortly.');
    throw Object.assign(unavailable, { cause: error });
  }
}

const KEY = '\u0000rate-limit-key';
const WINDOW_STARTED = '\u0000rate-limit-window';

/** One statement: a new key starts at 1, a key from an older window restarts at 1, else it counts up. */
const counterHit = compiledOnce([KEY, WINDOW_STARTED], (db) =>
  db
    .insertInto('rate_limit_counters')
    .values({ key: KEY, window_started_at: WINDOW_STARTED, count: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('rate_limit_counters.window_started_at', '=', WINDOW_STARTED)
          .then(eb('rate_limit_counters.count', '+', 1))
          .else(1)
          .end(),
        window_started_at: WINDOW_STARTED,
      })),
    )
    .returning('count'),
);

export function databaseRateLimiter(db: Db, clock: Clock): RateLimiter {
  return {
    hit: (key, rule) => orUnavailable(async () => {
      const now = clock.now().getTime();
      const windowStart = windowStartOf(now, rule.windowMs);
      const started = new Date(windowStart).toISOString();
      const { rows } = await db.executeQuery(counterHit(db, [storedKey(key), started]));
      const row = rows[0];
      if (row === undefined) throw new Error('the rate-limit counter returned no row');
      return decide(row.count, rule, windowStart, now);
    }),
    async close() {},
  };
}

export function redisRateLimiter(url: string, clock: Clock): RateLimiter {
  // Fail fast when Redis is down: a request waits at most a couple of retries, then gets a 503.
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 2_000, commandTimeout: 2_000 });
  // Connection errors surface on each hit as a 503 (logged by the error handler); no need to log every reconnect.
  redis.on('error', () => undefined);
  return {
    hit: (key, rule) => orUnavailable(async () => {
      const now = clock.now().getTime();
      const windowStart = windowStartOf(now, rule.windowMs);
      const redisKey = `tradelab:rl:${storedKey(key)}:${windowStart}`;
      const replies = await redis.multi().incr(redisKey).pexpire(redisKey, rule.windowMs * 2).exec();
      const [incrError, count] = replies?.[0] ?? [new Error('transaction discarded'), null];
      if (incrError || typeof count !== 'number') throw incrError ?? new Error('INCR gave no count');
      return decide(count, rule, windowStart, now);
    }),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
