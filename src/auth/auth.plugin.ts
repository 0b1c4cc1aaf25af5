import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../platform/errors.js';
import type { Platform } from '../platform/platform.js';
import type { AuthDeps } from './auth-context.js';
import { authModeRoutes } from './auth-mode.routes.js';
import { authRoutes } from './auth.routes.js';
import { credentialRoutes } from './credentials.routes.js';
import { recoveryRoutes } from './recovery.routes.js';
import { registerSessionHooks } from './session-hooks.js';

/** Paths that exist only with accounts: AUTH_V1=off answers 404 for all of them. */
const ACCOUNT_PATHS = /^\/api\/(auth|gdpr|admin)(\/|\?|$)/;

/** What the auth services (and features reusing them, such as the admin step-up) need from the platform. */
export function authDeps(platform: Platform): AuthDeps {
  return {
    db: platform.db,
    dialect: platform.dialect,
    clock: platform.clock,
    config: platform.config,
    rateLimiter: platform.rateLimiter,
    logger: platform.logger,
  };
}

/**
 * Passkey accounts: the cookie parser, `requireSession` / `requireRole` for every feature, and the
 * /api/auth routes. Register it before the features that use the hooks.
 * AUTH_V1=off registers no account route and 404s every account, data-rights and admin path. `GET /api/config`
 * answers in every mode: it is how the web app learns which.
 */
export async function registerAuth(app: FastifyInstance, platform: Platform, listeners: Pick<AuthDeps, 'onCredentialsReset'> = {}): Promise<void> {
  const deps = { ...authDeps(platform), ...listeners };
  await app.register(fastifyCookie);
  registerSessionHooks(app, deps);
  await app.register(authModeRoutes(platform.config.authV1));

  if (platform.config.authV1 === 'off') {
    app.addHook('onRequest', async (request) => {
      if (ACCOUNT_PATHS.test(request.url)) throw new NotFound('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
    });
    return;
  }

  await app.register(
    async (api) => {
      // Answers name the session, its user and single-use options: no cache may keep them.
      api.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      await api.register(authRoutes(deps));
      await api.register(credentialRoutes(deps));
      await api.register(recoveryRoutes(deps));
    },
    { prefix: '/api/auth' },
  );
}
