import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../platform/config.js';
import type { Clock } from '../platform/clock.js';
import type { Db, DbOrTx, DialectName } from '../platform/db/database.js';
import type { RateLimiter } from '../platform/rate-limit/rate-limiter.js';

/** What the auth services need from the platform. */
export interface AuthDeps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly config: Config;
  readonly rateLimiter: RateLimiter;
  readonly logger: FastifyBaseLogger;
  /** Told inside a recovery's transaction (see `CredentialsResetListener`); the composition wires trading's. */
  readonly onCredentialsReset?: CredentialsResetListener;
}

/**
 * Called in the transaction that resets an account's passkeys, so that what the previous holder queued stops with
 * them: trading cancels the account's resting orders there (auth sits below trading and cannot call it). Answers
 * how many orders it canceled.
 */
export type CredentialsResetListener = (trx: DbOrTx, userId: string) => Promise<number>;

/** Who is asking: the client's /24 or /48 network and its user agent, for sessions and audit. */
export interface ClientInfo {
  readonly ipPrefix: string | null;
  readonly userAgent: string | null;
}
