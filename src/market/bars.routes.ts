import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BadRequest, NotFound } from '../platform/errors.js';
import type { BarSeriesCache } from './bar-series-cache.js';
import { sliceSeries } from './bar-series.js';
import { assertTicker, EARLIEST_DATE, LATEST_DATE } from './market-terms.js';

const Day = (description: string) => Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: `${description}, YYYY-MM-DD` }));

const BarsQuery = Type.Object({ start_date: Day('First day (default: the first stored)'), end_date: Day('Last day (default: the last stored)') });

const Column = (description: string) => Type.Array(Type.Number(), { description });
const BarColumns = Type.Object(
  {
    symbol: Type.String(),
    dates: Type.Array(Type.String(), { description: 'YYYY-MM-DD, ascending' }),
    open: Column('Open of each date'),
    high: Column('High of each date'),
    low: Column('Low of each date'),
    close: Column('Close of each date'),
  },
  { description: 'The stored daily bars of the period, one column per field (what a price chart draws)' },
);

/**
 * GET /api/symbols/:symbol/bars: the stored daily bars of one symbol over a period, as columns — what the lab's
 * price chart draws under a backtest's fills. Read-only and store-only: it never asks a provider (the backtest that
 * the chart belongs to has already fetched what it needed), so a symbol not stored is 404 `unknown_symbol`.
 */
export function barsRoutes(cache: BarSeriesCache): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/symbols/:symbol/bars',
      {
        schema: {
          tags: ['market data'],
          summary: 'Stored daily bars (open, high, low, close) of a symbol over a period',
          params: Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 16 }) }),
          querystring: BarsQuery,
          response: { 200: BarColumns, 400: { $ref: 'ErrorResponse#' }, 404: { $ref: 'ErrorResponse#' } },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        assertTicker(symbol);
        const from = request.query.start_date ?? EARLIEST_DATE;
        const to = request.query.end_date ?? LATEST_DATE;
        if (to < from) throw new BadRequest('invalid_period', `end_date ${to} is before start_date ${from}.`, [{ field: 'query.end_date', message: 'is before start_date' }]);
        const stored = await cache.get(symbol);
        if (!stored) throw new NotFound('unknown_symbol', `We have no prices for ${symbol}.`);
        const bars = sliceSeries(stored.series, from, to);
        return { symbol, dates: [...bars.dates], open: [...bars.open], high: [...bars.high], low: [...bars.low], close: [...bars.close] };
      },
    );
  };
}
