import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
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
    /**
     * 401 `unauthenticated` unless the request carries an open session; sets `request.auth`. Named in any of a
     * route's hooks, it runs on request (see `placeSessionHooks`), as do `loadSession` and `requireRole`.
     */
    requireSession: preHandlerAsyncHookHandler;
    /**
     * Sets `request.auth` when the request carries an open session, and lets it through
     * either way (a route that answers differently with and without a session, such as GET /api/strategies).
     * Under AUTH_V1=off there is no session, so it leaves `request.auth` null.
     */
    loadSession: preHandlerAsyncHookHandler;
    /** A session whose user has `role`, else 401 / 403 `forbidden`. */
    requireRole: (role: 'admin') => preHandlerAsyncHookHandler;
  }
}

/** What a session hook asks of a request, kept on the hook itself for `placeSessionHooks`. */
interface SessionNeed {
  readonly session: 'required' | 'optional';
  readonly role?: 'admin';
}

/** Marks the hooks that read the session cookie with their `SessionNeed`. */
const READS_SESSION = Symbol('readsSession');

type SessionHook = { [READS_SESSION]: SessionNeed };

const LIFECYCLE = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/** The caller, for handlers behind `requireSession`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies?.[SESSION_COOKIE];
}

/**
 * Decorates the app with `requireSession`, `loadSession` and `requireRole`, and places them on every route as
 * `placeSessionHooks` says.
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
    { [READS_SESSION]: { session: 'required' } as SessionNeed },
  );
  const requireRole = (role: 'admin') =>
    Object.assign(
      async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        await requireSession(request, reply);
        if (authOf(request).role !== role) throw new Forbidden('forbidden', 'This needs the admin role.');
      },
      { [READS_SESSION]: { session: 'required', role } as SessionNeed },
    );
  const loadSession = Object.assign(
    async (request: FastifyRequest): Promise<void> => {
      if (request.auth) return;
      // AUTH_V1=off has no sessions: such a route answers as without one (GET /api/strategies: the catalogue).
      if (deps.config.authV1 !== 'off') request.auth = await resolveSession(deps, sessionCookieOf(request));
    },
    { [READS_SESSION]: { session: 'optional' } as SessionNeed },
  );
  app.decorate('requireSession', requireSession);
  app.decorate('loadSession', loadSession);
  app.decorate('requireRole', requireRole);

  app.addHook('onRoute', placeSessionHooks);
}

/**
 * For every route, wherever it names its session hooks: refuses at startup a route that opts out of the Origin
 * check (`config.changesState === false`) while reading the session, which would be a cross-site request forgery
 * hole; runs the session hooks on request, before the body is read and validated, so that the session and the role
 * are checked before validation on every route (DESIGN: an anonymous caller learns nothing of a private route's
 * parameters); and declares what they need in the OpenAPI document (`security`, and `x-required-role`).
 */
function placeSessionHooks(route: RouteOptions): void {
  const stages = route as unknown as Record<(typeof LIFECYCLE)[number], unknown>;
  const hooksAt = (stage: (typeof LIFECYCLE)[number]): unknown[] => [stages[stage]].flat().filter((hook) => hook !== undefined);
  const sessionHooks = LIFECYCLE.flatMap(hooksAt).filter(isSessionHook);
  if (sessionHooks.length === 0) return;
  if (route.config?.changesState === false) {
    throw new Error(
      `${route.method} ${route.url}: a route with config.changesState === false skips the Origin check and must not use requireSession (or loadSession, requireRole)`,
    );
  }
  const otherHooks = Object.fromEntries(LIFECYCLE.map((stage) => [stage, hooksAt(stage).filter((hook) => !isSessionHook(hook))]));
  Object.assign(stages, otherHooks, { onRequest: [...otherHooks.onRequest!, ...sessionHooks] });

  const needs = sessionHooks.map((hook) => hook[READS_SESSION]);
  const role = needs.find((need) => need.role)?.role;
  route.schema = {
    ...route.schema,
    security: needs.some((need) => need.session === 'required') ? [{ session: [] }] : [{ session: [] }, {}],
    ...(role ? { 'x-required-role': role } : {}),
  };
}

function isSessionHook(hook: unknown): hook is SessionHook {
  return typeof hook === 'function' && READS_SESSION in hook;
}
