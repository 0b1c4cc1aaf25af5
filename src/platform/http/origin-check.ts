import type { FastifyInstance } from 'fastify';
import { Forbidden } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Set to false on a POST that changes nothing stored (a backtest computation), so that
     * API clients without a browser `Origin` may call it.
     */
    changesState?: boolean;
  }
}

/**
 * Refuses every state-changing request whose `Origin` is not our public origin. With SameSite=Lax
 * session cookies this closes cross-site request forgery, including from sibling sub-domains.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.routeOptions.config?.changesState === false) return;
    const origin = request.headers.origin;
    if (origin !== publicOrigin) {
      throw new Forbidden(
        'origin_mismatch',
        origin
          ? `Requests that change data must come from ${publicOrigin}; this one came from ${origin}.`
          : `Requests that change data must carry an Origin header of ${publicOrigin}.`,
      );
    }
  });
}
