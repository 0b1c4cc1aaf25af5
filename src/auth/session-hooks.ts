import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Forbidden, unauthenticated } from '../platform/errors.js';
import type { AuthDeps } from './auth-context.js';
import { SESSION_COOKIE } from './lifetimes.js';
import { localOperator } from './operator.js';
import { resolveSession, type AuthContext } from './sessions.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, set by `requireSession` (null before it runs). */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 `unauthenticated` unless the request carries an open session; sets `request.auth`. */
    requireSession: preHandlerAsyncHookHandler;
    /**
     * preHandler: sets `request.auth` when the request carries an open session, and lets it through
     * either way (a route that answers differently with and without a session, such as GET /api/strategies).
     * Under AUTH_V1=off there is no session, so it leaves `request.auth` null.
     */
    loadSession: preHandlerAsyncHookHandler;
    /** preHandler: a session whose user has `role`, else 401 / 403 `forbidden`. */
    requireRole: (role: 'admin') => preHandlerAsyncHookHandler;
  }
}

/** Marks the hooks that read the session cookie, for the startup guard below. */
const READS_SESSION = Symbol('readsSession');

/** The caller, for handlers behind `requireSession`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies?.[SESSION_COOKIE];
}

/**
 * Decorates the app with `requireSession`, `loadSession` and `requireRole`, and refuses at startup a route that opts
 * out of the Origin check (`config.changesState === false`) while reading the session: such a route
 * would be a cross-site request forgery hole.
 */
export function registerSessionHooks(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('auth', null);

  const requireSession = Object.assign(
    async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      if (request.auth) return;
      if (deps.config.authV1 === 'off') {
        request.auth = await localOperator(deps);
        return;
      }
      const auth = await resolveSession(deps, sessionCookieOf(request));
      if (!auth) throw unauthenticated();
      request.auth = auth;
    },
    { [READS_SESSION]: true },
  );
  const requireRole = (role: 'admin') =>
    Object.assign(
      async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        await requireSession(request, reply);
        if (authOf(request).role !== role) throw new Forbidden('forbidden', 'This needs the admin role.');
      },
      { [READS_SESSION]: true },
    );
  const loadSession = Object.assign(
    async (request: FastifyRequest): Promise<void> => {
      if (request.auth) return;
      // AUTH_V1=off has no sessions: such a route answers as without one (GET /api/strategies: the catalogue).
      if (deps.config.authV1 !== 'off') request.auth = await resolveSession(deps, sessionCookieOf(request));
    },
    { [READS_SESSION]: true },
  );
  app.decorate('requireSession', requireSession);
  app.decorate('loadSession', loadSession);
  app.decorate('requireRole', requireRole);

  app.addHook('onRoute', (route) => {
    const hooks = [route.preHandler, route.onRequest, route.preValidation].flat().filter(Boolean) as object[];
    if (route.config?.changesState === false && hooks.some((hook) => READS_SESSION in hook)) {
      throw new Error(
        `${route.method} ${route.url}: a route with config.changesState === false skips the Origin check and must not use requireSession (or loadSession, requireRole)`,
      );
    }
  });
}
