import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../auth/session-hooks.js';
import type { StrategyDeps } from '../strategies/strategies.service.js';
import { ComplianceRequest, ComplianceResult } from './compliance.schema.js';
import { checkMyTrade } from './compliance.service.js';

const error = { $ref: 'ErrorResponse#' };

/**
 * The compliance check: a session is required (and so the Origin check, though nothing is stored: the check
 * reads the caller's strategy with their cookie). Violations are a 200 with `compliant: false`.
 */
export function complianceRoutes(deps: StrategyDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/trading/compliance-check',
      {
        onRequest: app.requireSession,
        schema: {
          tags: ['strategies'],
          security: [{ session: [] }],
          summary: 'Check a proposed trade against one of your strategies (all violations at once)',
          body: ComplianceRequest,
          response: { 200: ComplianceResult, 400: error, 401: error, 403: error, 404: error },
        },
      },
      async (request) => checkMyTrade(deps, authOf(request), request.body),
    );
  };
}
