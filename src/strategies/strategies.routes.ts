import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authOf } from '../auth/session-hooks.js';
import { pageReply } from '../platform/http/paging.js';
import {
  ActiveStrategyList,
  CreateStrategyBody,
  PatchStrategyBody,
  Strategy,
  StrategyErrorResponse,
  StrategyIdParams,
  StrategyList,
  StrategyListQuery,
  StrategyPageQuery,
} from './strategies.schema.js';
import {
  createMyStrategy,
  deleteMyStrategy,
  getMyStrategy,
  listMyActiveStrategies,
  listMyStrategies,
  parseStrategyId,
  updateMyStrategy,
  type LibraryDeps,
} from './strategies.service.js';
import { templateCatalogue, TemplateList } from './templates.schema.js';

const tags = ['strategies'];
const error = { $ref: 'ErrorResponse#' };
const security = [{ session: [] }];

/**
 * `?scope=library` asks for the library, never the catalogue: it needs a session (under AUTH_V1=off, which has none,
 * it acts for the local operator). Read before validation, so a caller without a session learns nothing from a 400.
 */
function wantsLibrary(request: FastifyRequest): boolean {
  return (request.query as { scope?: unknown }).scope === 'library';
}

/**
 * The Strategy Library, each route behind a session; `GET /api/strategies` without one is the template catalogue
 * (its legacy name, as before the library existed), and so is it under AUTH_V1=off unless `?scope=library`.
 */
export function strategiesRoutes(deps: LibraryDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/strategies',
      {
        onRequest: async (request, reply) => (wantsLibrary(request) ? app.requireSession : app.loadSession).call(app, request, reply),
        schema: {
          tags: ['strategies', 'backtest'],
          summary:
            'With a session: your Strategy Library (total in X-Total-Count). Without (and under AUTH_V1=off): the strategy templates (as /api/templates). `scope=library`: the library in every mode, 401 without a session',
          querystring: StrategyListQuery,
          response: {
            200: Type.Union([StrategyList, TemplateList], {
              description: 'With a session an array of Strategy; without one an array of strategy template',
            }),
            400: error,
            401: error,
          },
        },
      },
      async (request, reply) => (request.auth ? pageReply(reply, await listMyStrategies(deps, request.auth, request.query)) : templateCatalogue(request)),
    );

    // The session is checked on request, before the body is validated: no details for a caller without one.
    // Declared as a static path, which Fastify's router always prefers to `/api/strategies/:id`.
    app.get(
      '/api/strategies/active',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'Active strategies for a picker, a page at a time (total in X-Total-Count)',
          querystring: StrategyPageQuery,
          response: { 200: ActiveStrategyList, 400: error, 401: error },
        },
      },
      async (request, reply) => pageReply(reply, await listMyActiveStrategies(deps, authOf(request), request.query)),
    );

    app.post(
      '/api/strategies',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'Create a strategy (at most 1,000 in a library: 409 strategy_limit_reached)',
          body: CreateStrategyBody,
          response: { 201: Strategy, 400: StrategyErrorResponse, 401: error, 403: error, 409: error },
        },
      },
      async (request, reply) => reply.status(201).send(await createMyStrategy(deps, authOf(request), request.body)),
    );

    app.get(
      '/api/strategies/:id',
      {
        onRequest: app.requireSession,
        schema: { tags, security, summary: 'One of your strategies', params: StrategyIdParams, response: { 200: Strategy, 400: error, 401: error, 404: error } },
      },
      async (request) => getMyStrategy(deps, authOf(request), parseStrategyId(request.params.id)),
    );

    app.patch(
      '/api/strategies/:id',
      {
        onRequest: app.requireSession,
        schema: {
          tags,
          security,
          summary: 'Change some fields of a strategy',
          params: StrategyIdParams,
          body: PatchStrategyBody,
          response: { 200: Strategy, 400: StrategyErrorResponse, 401: error, 403: error, 404: error },
        },
      },
      async (request) => updateMyStrategy(deps, authOf(request), parseStrategyId(request.params.id), request.body),
    );

    app.delete(
      '/api/strategies/:id',
      {
        onRequest: app.requireSession,
        schema: { tags, security, summary: 'Delete a strategy', params: StrategyIdParams, response: { 204: Type.Null(), 400: error, 401: error, 403: error, 404: error } },
      },
      async (request, reply) => {
        await deleteMyStrategy(deps, authOf(request), parseStrategyId(request.params.id));
        return reply.status(204).send(null);
      },
    );
  };
}
