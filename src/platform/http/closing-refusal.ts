import type { FastifyInstance } from 'fastify';
import { ServiceUnavailable } from '../errors.js';

/**
 * Once the app begins to close, a request that still arrives (pipelined, or on a kept-alive connection with a
 * request in hand) is refused as 503 `shutting_down` with `Retry-After: 1` and `Connection: close`, in the error
 * shape and with the security headers, so a client or load balancer retries it elsewhere. This replaces Fastify's
 * built-in answer (`return503OnClosing`), a fixed body without either.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new ServiceUnavailable('shutting_down', 'The server is shutting down or restarting; try again in a moment.', 1);
  });
}
