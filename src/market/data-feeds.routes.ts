import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { servableDataFeeds } from './data-feeds.service.js';
import { DATA_FEEDS } from './market-terms.js';

const DataFeedList = Type.Array(
  Type.Object({
    id: Type.String({ description: `The value of \`data_feed\` in a backtest request: ${DATA_FEEDS.join(' or ')}` }),
    name: Type.String(),
    description: Type.String(),
  }),
  { description: 'The feeds this server can serve, default first' },
);

/** `realTime`: whether the configured provider serves real-time data (only Alpaca does). */
export function dataFeedsRoutes(realTime: boolean): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/data-feeds',
      { schema: { tags: ['market data'], summary: 'Data feeds this server can serve', response: { 200: DataFeedList } } },
      async () => [...servableDataFeeds(realTime)],
    );
  };
}
