import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { DatabaseHandle, Db, DialectName } from './db/database.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';

/** What every feature is built from: passed in, never imported as a global. */
export interface Platform {
  readonly config: Config;
  readonly db: Db;
  readonly dialect: DialectName;
  readonly database: DatabaseHandle;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly rateLimiter: RateLimiter;
}
