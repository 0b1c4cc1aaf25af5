import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { STRATEGY_TEMPLATES } from './engine/index.js';

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
 * `GET /api/templates` (the name the catalogue keeps) and `GET /api/strategies` (its legacy name). Without a
 * session `/api/strategies` is the catalogue; when the Strategy Library lands, its handler becomes
 * `session ? library : catalogue` (and its response schema a union of both).
 */
export function templatesRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    const response = { 200: TemplateList };
    app.get('/api/templates', { schema: { tags: ['backtest'], summary: 'Strategy templates of the legacy backtest', response } }, async (request) =>
      templateCatalogue(request),
    );
    app.get(
      '/api/strategies',
      { schema: { tags: ['backtest'], summary: 'Without a session: the strategy templates (as /api/templates)', response } },
      async (request) => templateCatalogue(request),
    );
  };
}
