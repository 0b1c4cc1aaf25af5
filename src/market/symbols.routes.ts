import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SYMBOL_SEARCH_DEFAULT_LIMIT, SYMBOL_SEARCH_MAX_LIMIT, type SymbolSearch } from './symbols.service.js';

const SymbolQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 64, description: 'Prefix of the ticker or of a word of the name, any case' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SYMBOL_SEARCH_MAX_LIMIT, description: `At most this many (default ${SYMBOL_SEARCH_DEFAULT_LIMIT}, max ${SYMBOL_SEARCH_MAX_LIMIT})` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many (default 0)' })),
  },
);

// An enum, not a union of literals: the response serializer would check each row against every branch of a union.
const BarsSource = Type.Enum(['demo', 'import', 'alpaca', 'yahoo'], {
  description: "Where the stored bars came from; for a symbol not stored, the provider that fetches them at its first backtest",
});

const SymbolList = Type.Array(
  Type.Object({
    symbol: Type.String(),
    name: Type.String(),
    stored: Type.Boolean({ description: 'false: the market-data provider knows the ticker, but no bar of it is stored yet' }),
    source: BarsSource,
    first_date: Type.Optional(Type.String({ format: 'date', description: 'The first stored bar (stored symbols with bars only)' })),
    last_date: Type.Optional(Type.String({ format: 'date', description: 'The last stored bar (stored symbols with bars only)' })),
  }),
  {
    description:
      'Stored matches first (exact ticker, then ticker prefixes, then name matches; alphabetical within each), then what the provider offers beyond them (stored, then not stored)',
  },
);

const DESCRIPTION = [
  'X-Total-Count: stored matches and provider offers in all.',
  'X-Market-Data-Provider: yahoo, alpaca or none, where a ticker not stored would be fetched from.',
  'X-Provider-Search: offered (the provider was asked, or answered within the last 5 minutes), unavailable (it failed: stored matches only), or not_asked (no provider search, or a query shorter than 2 characters).',
].join(' ');

export function symbolsRoutes(search: SymbolSearch): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/symbols',
      {
        schema: {
          tags: ['market data'],
          summary: 'Stored symbols, and tickers the market-data provider knows (total in X-Total-Count)',
          description: DESCRIPTION,
          querystring: SymbolQuery,
          response: { 200: SymbolList },
        },
      },
      async (request, reply) => {
        const { symbols, total, providerSearch } = await search.find(request.query);
        reply.header('x-total-count', String(total));
        reply.header('x-market-data-provider', search.provider);
        reply.header('x-provider-search', providerSearch);
        return symbols;
      },
    );
  };
}
