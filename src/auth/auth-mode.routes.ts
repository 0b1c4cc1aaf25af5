import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthRollout } from '../platform/config.js';

/** `GET /api/config`; the web app imports its type. */
export const ServerConfig = Type.Object({
  auth_v1: Type.Union([Type.Literal('off'), Type.Literal('beta'), Type.Literal('ga')], {
    description: '`off`: no accounts, every page acts for the local operator; `beta`: registration for an allowlist; `ga`: open registration',
  }),
});

/**
 * `GET /api/config`: what the web app must know before it asks for a session, in every mode (under AUTH_V1=off
 * `/api/auth/session` is a 404 like every account route). Public and the same for everyone; `no-cache` so a restart
 * with another AUTH_V1 shows at once.
 */
export function authModeRoutes(authV1: AuthRollout): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/config',
      { schema: { tags: ['auth'], summary: 'The server’s account mode (AUTH_V1), for the web app', response: { 200: ServerConfig } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return { auth_v1: authV1 };
      },
    );
  };
}
