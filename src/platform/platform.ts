import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { DatabaseHandle, Db, DialectName } from './db/database.js';
import { databaseRateLimiter, redisRateLimiter, type RateLimiter } from './rate-limit/rate-limiter.js';

/** What every feature is built from: passed in, never imported as a global. */
export interface Platform {
  readonly config: Config;
  readonly db: Db;
  readonly dialect: DialectName;
  readonly database: DatabaseHandle;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly rateLimiter: RateLimiter;
  /** Releases what the platform opened (not the database, which its opener closes). */
  close(): Promise<void>;
}

/** Assembles the platform the same way for the HTTP server and for a worker-only process. */
export function assemblePlatform(parts: {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  logger: FastifyBaseLogger;
}): Platform {
  const { config, database, clock, logger } = parts;
  const rateLimiter = config.redisUrl ? redisRateLimiter(config.redisUrl, clock) : databaseRateLimiter(database.db, clock);
  if (config.publicOrigin.startsWith('https:') && !config.smtpUrl) {
    logger.warn('SMTP_URL is not set: mail is written to files under DATA_DIR/mail and nobody receives it');
  }
  return {
    config,
    db: database.db,
    dialect: database.dialect,
    database,
    clock,
    logger,
    rateLimiter,
    close: () => rateLimiter.close(),
  };
}
