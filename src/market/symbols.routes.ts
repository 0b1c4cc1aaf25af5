import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../platform/db/database.js';
import { findSymbols, SYMBOL_SEARCH_DEFAULT_LIMIT, SYMBOL_SEARCH_MAX_LIMIT } from './symbols.service.js';

const SymbolQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 64, description: 'Prefix of the ticker or of a word of the name, any case' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SYMBOL_SEARCH_MAX_LIMIT, description: `At most this many (default ${SYMBOL_SEARCH_DEFAULT_LIMIT}, max ${SYMBOL_SEARCH_MAX_LIMIT})` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many (default 0)' })),
  },
);

const SymbolList = Type.Array(Type.Object({ symbol: Type.String(), name: Type.String() }), {
  description: 'Exact ticker first, then ticker prefixes, then name matches; alphabetical within each',
});

export function symbolsRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/symbols',
      { schema: { tags: ['market data'], summary: 'Symbols with stored bars (total in X-Total-Count)', querystring: SymbolQuery, response: { 200: SymbolList } } },
      async (request, reply) => {
        const { symbols, total } = await findSymbols(db, request.query);
        reply.header('x-total-count', String(total));
        return symbols;
      },
    );
  };
}
