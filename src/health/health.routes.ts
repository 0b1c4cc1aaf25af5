import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pingDatabase, type Db } from '../platform/db/database.js';
import { ServiceUnavailable } from '../platform/errors.js';

const Status = Type.Object({ status: Type.String() });

/** Liveness (the process answers) and readiness (the database answers), for load balancers and orchestrators. */
export function healthRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/healthz', { schema: { tags: ['health'], response: { 200: Status } } }, async () => ({ status: 'ok' }));

    app.get(
      '/readyz',
      { schema: { tags: ['health'], response: { 200: Status, 503: { $ref: 'ErrorResponse#' } } } },
      async () => {
        try {
          await pingDatabase(db);
        } catch {
          throw new ServiceUnavailable('database_unavailable', 'The database does not answer.');
        }
        return { status: 'ready' };
      },
    );
  };
}
