import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../platform/platform.js';
import { MINUTE } from '../platform/clock.js';
import { NotFound } from '../platform/errors.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import { authOf } from '../auth/session-hooks.js';
import { LibraryBacktestRequest, LibraryBacktestResult } from './library-backtest.schema.js';
import { libraryBacktestBody, type LibraryBacktestDeps } from './library-backtest.service.js';

const ERRORS = {
  400: { $ref: 'ErrorResponse#' },
  401: { $ref: 'ErrorResponse#' },
  403: { $ref: 'ErrorResponse#' },
  404: { $ref: 'ErrorResponse#' },
  422: { $ref: 'ErrorResponse#' },
  429: { $ref: 'ErrorResponse#' },
} as const;

/**
 * POST /api/backtest/run: the caller's library strategy replayed over stored bars. Needs a session (so it keeps
 * the Origin check), rate-limited per user with the legacy backtest's limit (`LEGACY_BACKTEST_RATE_LIMIT`/min).
 * With FLAG_BACKTEST_STRATEGY_LIBRARY off the route stays registered (and in OpenAPI) but answers 404
 * `feature_disabled` before anything else, session included.
 */
export function libraryBacktestRoutes(platform: Platform, deps: LibraryBacktestDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const enabled = async () => {
      if (!platform.config.flagBacktestStrategyLibrary) throw new NotFound('feature_disabled', 'Library backtests are turned off on this server.');
    };
    const limited = rateLimit(platform.rateLimiter, 'library-backtest', { limit: platform.config.legacyBacktestRateLimit, windowMs: MINUTE }, (request) => authOf(request).userId);

    app.post(
      '/api/backtest/run',
      {
        // The session before the body, as on the library's routes: a caller without one learns nothing of the fields.
        onRequest: [enabled, app.requireSession],
        preHandler: limited,
        schema: {
          tags: ['backtest'],
          summary: 'Backtest one of your library strategies over stored daily bars',
          body: LibraryBacktestRequest,
          response: { 200: LibraryBacktestResult, ...ERRORS },
        },
      },
      // Serialized by this route's response schema (reply.serialize), then cached as bytes.
      async (request, reply) => {
        const body = await libraryBacktestBody(deps, authOf(request).userId, request.body, (result) => String(reply.serialize(result)));
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
