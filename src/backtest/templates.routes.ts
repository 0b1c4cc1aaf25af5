import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { templateCatalogue, TemplateList } from '../strategies/templates.schema.js';

/** `GET /api/templates`: the catalogue of the legacy backtest, the name it keeps (`GET /api/strategies` without a session is its legacy name). */
export function templatesRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/api/templates', { schema: { tags: ['backtest'], summary: 'Strategy templates of the legacy backtest', response: { 200: TemplateList } } }, async (request) =>
      templateCatalogue(request),
    );
  };
}
