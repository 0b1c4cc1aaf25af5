import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { RateLimited } from '../errors.js';
import { truncateClientAddress } from '../audit/client-address.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';

/** The client's /24 or /48 network: the unit rate limits count by when there is no better key. */
export function clientPrefixKey(request: FastifyRequest): string {
  return truncateClientAddress(request.ip) ?? 'unknown';
}

/**
 * A route hook that counts requests under `bucket` + a key of the request and answers 429
 * `rate_limited` with `Retry-After` past the rule's limit.
 */
export function rateLimit(
  limiter: RateLimiter,
  bucket: string,
  rule: RateLimitRule,
  keyOf: (request: FastifyRequest) => string = clientPrefixKey,
): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const decision = await limiter.hit(`${bucket}:${keyOf(request)}`, rule);
    reply.header('ratelimit-limit', String(rule.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    if (!decision.allowed) {
      throw new RateLimited('rate_limited', `Too many requests; try again in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
    }
  };
}
