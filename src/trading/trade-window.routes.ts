import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../auth/session-hooks.js';
import { cancelMyOrder, getMyOrder, listMyOrders } from './order-book.service.js';
import { previewOptionsOrder } from './options-preview.service.js';
import { placeEquityOrder, placeOptionsOrder, type PlacementDeps } from './orders.service.js';
import { myPortfolio, resetMyPortfolio } from './portfolio.service.js';
import { quoteFor } from './price-quote.service.js';
import {
  OptionsPreview,
  Order,
  OrderIdParams,
  OrderList,
  OrderListQuery,
  OrderRefusal,
  PlaceOptionsOrderBody,
  PlaceOrderBody,
  Portfolio,
  PriceQuote,
  PriceQuoteQuery,
} from './trading.schema.js';

const tags = ['trade-window'];
const error = { $ref: 'ErrorResponse#' };
const security = [{ session: [] }];
/** The order routes' answers: 201 placed, 200 a retry, 403 the cooldown (`until`), 422 a refusal (`violations`), 409 a reused key. */
const placementResponses = { 200: Order, 201: Order, 400: error, 401: error, 403: OrderRefusal, 404: error, 409: error, 422: OrderRefusal };

/** The trade window: paper orders and the paper portfolio, every route behind a session (and so the Origin check). */
export function tradeWindowRoutes(deps: PlacementDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/trade-window/orders',
      { onRequest: app.requireSession, schema: { tags, security, summary: 'Place a paper equity order (market or limit)', body: PlaceOrderBody, response: placementResponses } },
      async (request, reply) => {
        const answer = await placeEquityOrder(deps, authOf(request), request.body);
        return reply.status(answer.status).send(answer.body);
      },
    );

    app.post(
      '/api/trade-window/options-orders',
      {
        onRequest: app.requireSession,
        schema: { tags, security, summary: 'Place a paper options order (OCC legs, the net price a limit; fills at once at the modeled price or is refused)', body: PlaceOptionsOrderBody, response: placementResponses },
      },
      async (request, reply) => {
        const answer = await placeOptionsOrder(deps, authOf(request), request.body);
        return reply.status(answer.status).send(answer.body);
      },
    );

    app.post(
      '/api/trade-window/options-orders/preview',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'The modeled bid, ask and volatility of an options order, and its maximum loss, maximum gain and breakevens at the price it would fill at (nothing placed)',
          body: PlaceOptionsOrderBody,
          response: { 200: OptionsPreview, 400: error, 401: error, 403: error, 422: error },
        },
      },
      async (request) => previewOptionsOrder(deps, request.body),
    );

    app.get(
      '/api/trade-window/quote',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'The price a market order on the symbol would fill at now, with its time and source (the provider’s delayed price, or the latest stored close); nothing placed',
          querystring: PriceQuoteQuery,
          response: { 200: PriceQuote, 400: error, 401: error, 404: error, 502: error, 503: error, 504: error },
        },
      },
      async (request) => quoteFor(deps, request.query.symbol),
    );

    app.get(
      '/api/trade-window/orders',
      {
        onRequest: app.requireSession,
        schema: { tags, security, summary: 'Your orders, newest first (total in X-Total-Count)', querystring: OrderListQuery, response: { 200: OrderList, 400: error, 401: error } },
      },
      async (request, reply) => {
        const { orders, total } = await listMyOrders(deps, authOf(request), request.query);
        reply.header('x-total-count', String(total));
        return orders;
      },
    );

    app.get(
      '/api/trade-window/orders/:id',
      { onRequest: app.requireSession, schema: { tags, security, summary: 'One of your orders', params: OrderIdParams, response: { 200: Order, 400: error, 401: error, 404: error } } },
      async (request) => getMyOrder(deps, authOf(request), request.params.id.toLowerCase()),
    );

    app.delete(
      '/api/trade-window/orders/:id',
      {
        onRequest: app.requireSession,
        schema: { tags, security, summary: 'Cancel a resting order (409 once filled)', params: OrderIdParams, response: { 200: Order, 400: error, 401: error, 403: error, 404: error, 409: error } },
      },
      async (request) => cancelMyOrder(deps, authOf(request), request.params.id.toLowerCase()),
    );

    app.get(
      '/api/trade-window/portfolio',
      { onRequest: app.requireSession, schema: { tags, security, summary: 'Your paper portfolio: cash, positions, P&L', response: { 200: Portfolio, 401: error } } },
      async (request) => myPortfolio(deps, authOf(request)),
    );

    app.post(
      '/api/trade-window/portfolio/reset',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'Back to 100,000 cash (resting orders canceled, history kept); 403 trade_cooldown (`until`) during the recovery cooldown',
          response: { 200: Portfolio, 401: error, 403: OrderRefusal },
        },
      },
      async (request, reply) => {
        const answer = await resetMyPortfolio(deps, authOf(request));
        return reply.status(answer.status).send(answer.body);
      },
    );
  };
}
