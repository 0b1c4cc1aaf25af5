import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { STRATEGY_TEMPLATES } from './engine/index.js';
import { StrategyList, StrategyListQuery } from '../strategies/strategies.schema.js';
import { listMyStrategies, type StrategyDeps } from '../strategies/strategies.service.js';

export const StrategyTemplateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    parameters: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.String({ description: '`integer` or `number`' }),
        default: Type.Number(),
        min: Type.Number(),
        max: Type.Number(),
        description: Type.String(),
      }),
    ),
  },
  { description: 'Strategy template (legacy backtest catalogue entry)' },
);

const TemplateList = Type.Array(StrategyTemplateSchema);
type TemplateList = Static<typeof TemplateList>;

const CATALOGUE: TemplateList = STRATEGY_TEMPLATES.map(({ parameters, ...template }) => ({
  ...template,
  parameters: parameters.map((parameter) => ({ ...parameter })),
}));

/** The catalogue, the same for everyone. */
export function templateCatalogue(_request: FastifyRequest): TemplateList {
  return CATALOGUE;
}

/**
 * `GET /api/templates` (the name the catalogue keeps) and `GET /api/strategies` (its legacy name). With a
 * session `/api/strategies` is the caller's Strategy Library (one page, the total in `X-Total-Count`);
 * without one it is the catalogue, as before. Its response schema is the union of both.
 */
export function templatesRoutes(library: StrategyDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const response = { 200: TemplateList };
    app.get('/api/templates', { schema: { tags: ['backtest'], summary: 'Strategy templates of the legacy backtest', response } }, async (request) =>
      templateCatalogue(request),
    );
    app.get(
      '/api/strategies',
      {
        onRequest: app.loadSession,
        schema: {
          tags: ['strategies', 'backtest'],
          summary: 'With a session: your Strategy Library (total in X-Total-Count). Without: the strategy templates (as /api/templates)',
          querystring: StrategyListQuery,
          response: {
            200: Type.Union([StrategyList, TemplateList], {
              description: 'With a session an array of Strategy; without one an array of strategy template',
            }),
            400: { $ref: 'ErrorResponse#' },
          },
        },
      },
      async (request, reply) => {
        if (!request.auth) return templateCatalogue(request);
        const { strategies, total } = await listMyStrategies(library, request.auth, request.query);
        reply.header('x-total-count', String(total));
        return strategies;
      },
    );
  };
}
