import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The part of find-my-way (Fastify's router) this module uses. */
interface Router {
  on(method: string, path: string, handler: () => void): void;
  find(method: string, path: string): unknown;
}

// find-my-way is Fastify's router and dependency, not ours: load the very copy Fastify runs, so paths match alike.
const findMyWay = createRequire(createRequire(import.meta.url).resolve('fastify'))('find-my-way') as (options?: object) => Router;

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

/**
 * Keeps a second router with every route's path and method (an `onRoute` hook: register before any route), so that
 * a request no route matches can be told apart: a known path asked with the wrong method is a 405 with `Allow`, an
 * unknown path a 404. Answers the methods a path takes, sorted (none for an unknown path).
 */
export function trackAllowedMethods(app: FastifyInstance): (request: FastifyRequest) => readonly string[] {
  const router = findMyWay();
  const known = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      if (known.has(key)) continue;
      known.add(key);
      router.on(method, route.url, () => undefined);
    }
  });
  return (request) => {
    const path = request.url.split('?')[0] ?? '/';
    return METHODS.filter((method) => method !== request.method && router.find(method, path) !== null);
  };
}

/** The 405 for a known path asked with a method it does not take, `Allow` naming those it does. */
export function sendMethodNotAllowed(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]) {
  const allow = allowed.join(', ');
  const path = request.url.split('?')[0];
  return reply
    .status(405)
    .header('allow', allow)
    .send({ error: 'method_not_allowed', message: `${request.method} is not allowed on ${path}; it takes ${allow}.` });
}
