import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../platform/platform.js';
import { MINUTE } from '../platform/clock.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import { BacktestRequest, BacktestResult, CompareRequest, ComparisonResult } from './backtest.schema.js';
import { comparisonBody, legacyBacktestBody, type BacktestDeps } from './backtest.service.js';

const ERRORS = {
  400: { $ref: 'ErrorResponse#' },
  403: { $ref: 'ErrorResponse#' },
  404: { $ref: 'ErrorResponse#' },
  422: { $ref: 'ErrorResponse#' },
  429: { $ref: 'ErrorResponse#' },
} as const;

/**
 * The legacy backtest and comparison: no session, nothing stored (so no Origin check), rate-limited
 * per client prefix (`LEGACY_BACKTEST_RATE_LIMIT`, default 120/min).
 */
export function backtestRoutes(platform: Platform, deps: BacktestDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const limited = rateLimit(platform.rateLimiter, 'legacy-backtest', { limit: platform.config.legacyBacktestRateLimit, windowMs: MINUTE });

    app.post(
      '/api/backtest',
      {
        config: { changesState: false },
        preHandler: limited,
        schema: { tags: ['backtest'], summary: 'Backtest a strategy template on a symbol', body: BacktestRequest, response: { 200: BacktestResult, ...ERRORS } },
      },
      // The body is serialized by this route's response schema (reply.serialize), then cached as bytes.
      async (request, reply) => {
        const body = await legacyBacktestBody(deps, request.body, (result) => String(reply.serialize(result)));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );

    app.post(
      '/api/compare-strategies',
      {
        config: { changesState: false },
        preHandler: limited,
        schema: { tags: ['backtest'], summary: 'Compare strategy templates on a symbol', body: CompareRequest, response: { 200: ComparisonResult, ...ERRORS } },
      },
      async (request, reply) => {
        const body = await comparisonBody(deps, request.body, (result) => String(reply.serialize(result)));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
