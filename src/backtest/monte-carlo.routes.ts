import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../platform/platform.js';
import { MINUTE } from '../platform/clock.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import { MonteCarloRequest, MonteCarloResult } from './monte-carlo.schema.js';
import { monteCarloBody } from './monte-carlo.service.js';
import type { SweepDeps } from './sweep.service.js';

const ERRORS = {
  400: { $ref: 'ErrorResponse#' },
  403: { $ref: 'ErrorResponse#' },
  404: { $ref: 'ErrorResponse#' },
  422: { $ref: 'ErrorResponse#' },
  429: { $ref: 'ErrorResponse#' },
  503: { $ref: 'ErrorResponse#' },
} as const;

/**
 * Monte Carlo robustness: no session, nothing stored (so no Origin check), rate-limited per client prefix like the
 * sweep (`SWEEP_RATE_LIMIT`, its own count); 503 `busy` with Retry-After when the worker threads' queue is full.
 */
export function monteCarloRoutes(platform: Platform, deps: SweepDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const limited = rateLimit(platform.rateLimiter, 'backtest-monte-carlo', { limit: platform.config.sweepRateLimit, windowMs: MINUTE });

    app.post(
      '/api/backtest/monte-carlo',
      {
        config: { changesState: false },
        preHandler: limited,
        schema: {
          tags: ['backtest'],
          summary: 'Resample a backtest’s closed trades: the spread of final equity and drawdown',
          body: MonteCarloRequest,
          response: { 200: MonteCarloResult, ...ERRORS },
        },
      },
      async (request, reply) => {
        const body = await monteCarloBody(deps, request.body, (result) => String(reply.serialize(result)));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
