import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../errors.js';

/**
 * Options for Node's HTTP server. Node's own check for a missing Host answers an empty 400 before any hook
 * runs (no error body, no security headers), so it is turned off and `registerHostHeaderCheck` refuses instead.
 */
export const httpServerOptions = { requireHostHeader: false } as const;

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): without one, 400 `missing_host`. HTTP/1.0 needs none. */
export function registerHostHeaderCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw new BadRequest('missing_host', 'An HTTP/1.1 request must carry a Host header.');
    }
  });
}
