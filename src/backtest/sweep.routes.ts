import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../platform/platform.js';
import { MINUTE } from '../platform/clock.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import { SweepRequest, SweepResult } from './sweep.schema.js';
import { sweepBody, type SweepDeps } from './sweep.service.js';

const ERRORS = {
  400: { $ref: 'ErrorResponse#' },
  403: { $ref: 'ErrorResponse#' },
  404: { $ref: 'ErrorResponse#' },
  422: { $ref: 'ErrorResponse#' },
  429: { $ref: 'ErrorResponse#' },
  503: { $ref: 'ErrorResponse#' },
} as const;

/**
 * The parameter sweep: no session, nothing stored (so no Origin check), rate-limited per client prefix on its own
 * (`SWEEP_RATE_LIMIT`, default 20/min); 503 `busy` with Retry-After when the sweep threads' queue is full.
 */
export function sweepRoutes(platform: Platform, deps: SweepDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const limited = rateLimit(platform.rateLimiter, 'backtest-sweep', { limit: platform.config.sweepRateLimit, windowMs: MINUTE });

    app.post(
      '/api/backtest/sweep',
      {
        config: { changesState: false },
        preHandler: limited,
        schema: {
          tags: ['backtest'],
          summary: 'Backtest a template over a grid of one or two of its parameters',
          body: SweepRequest,
          response: { 200: SweepResult, ...ERRORS },
        },
      },
      async (request, reply) => {
        const body = await sweepBody(deps, request.body, (result) => String(reply.serialize(result)));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
