import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { RateLimited } from '../errors.js';
import { truncateClientAddress } from '../audit/client-address.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';

/** Counts a refused request against one limit of its route (see `countRefusedRequests`). */
type RefusalCounter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Marks a rate-limit hook and holds what counts a refused request against it. */
const COUNTS_REFUSALS = Symbol('countsRefusals');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's rate limits, gathered from its hooks by `countRefusedRequests`. */
    refusalCounters?: readonly RefusalCounter[];
  }
}

/** The client's /24 or /48 network: the unit rate limits count by when there is no better key. */
export function clientPrefixKey(request: FastifyRequest): string {
  return truncateClientAddress(request.ip) ?? 'unknown';
}

/**
 * A route hook that counts requests under `bucket` + a key of the request and answers 429
 * `rate_limited` with `Retry-After` past the rule's limit. A request refused before the hook runs
 * (a schema violation, malformed JSON, a missing session) is counted all the same by the error handler
 * (`countRefusal`), under the client's network when `keyOf` cannot name it yet; each request counts once.
 */
export function rateLimit(
  limiter: RateLimiter,
  bucket: string,
  rule: RateLimitRule,
  keyOf: (request: FastifyRequest) => string = clientPrefixKey,
): preHandlerAsyncHookHandler {
  const counted = new WeakSet<FastifyRequest>();
  const count = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    counted.add(request);
    const decision = await limiter.hit(`${bucket}:${key}`, rule);
    reply.header('ratelimit-limit', String(rule.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    if (!decision.allowed) {
      throw new RateLimited('rate_limited', `Too many requests; try again in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
    }
  };
  const hook: preHandlerAsyncHookHandler = async (request, reply) => count(request, reply, keyOf(request));
  const countRefused: RefusalCounter = async (request, reply) => {
    if (counted.has(request)) return;
    let key: string;
    try {
      key = keyOf(request);
    } catch {
      key = clientPrefixKey(request);
    }
    await count(request, reply, key);
  };
  return Object.assign(hook, { [COUNTS_REFUSALS]: countRefused });
}

/**
 * Gathers each route's rate-limit hooks (wherever the route placed them) into its config, so that the error
 * handler can count a refused request toward them: a client cannot probe a limited route for free with bodies it
 * knows will fail validation. Register before any route.
 */
export function countRefusedRequests(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest, route.preParsing, route.preValidation, route.preHandler].flat();
    const counters = hooks.flatMap((hook) => (typeof hook === 'function' && COUNTS_REFUSALS in hook ? [hook[COUNTS_REFUSALS] as RefusalCounter] : []));
    if (counters.length > 0) route.config = { ...route.config, refusalCounters: counters };
  });
}

/** Counts a refused request against its route's limits; throws `RateLimited` when one of them is spent. */
export async function countRefusal(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  for (const counter of request.routeOptions.config?.refusalCounters ?? []) await counter(request, reply);
}
