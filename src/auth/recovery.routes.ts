import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthDeps } from './auth-context.js';
import { RecoveryCompleteBody, RecoveryStartBody, SignedIn, WebAuthnOptions } from './auth.schema.js';
import { ceremonyLimit, clientOf, rejectInvalidPayload, setSessionCookie } from './http.js';
import { completeRecovery, recoveryOptions, startRecovery } from './recovery.service.js';
import type { RegistrationResponseJSON } from './webauthn.js';

const tags = ['auth'];
const error = { $ref: 'ErrorResponse#' };

/** Email-link recovery: the one fallback when every passkey is lost. Mounted at /api/auth. */
export function recoveryRoutes(deps: AuthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Always 202, limits included (3 an hour per address, 10 per network): the answer says nothing of the account.
    app.post(
      '/recovery/start',
      { schema: { tags, body: RecoveryStartBody, response: { 202: Type.Object({}), 400: error } } },
      async (request, reply) => {
        await startRecovery(deps, request.body.email, clientOf(request));
        return reply.status(202).send({});
      },
    );

    app.post(
      '/recovery/complete',
      {
        schema: {
          tags,
          body: RecoveryCompleteBody,
          response: { 200: { anyOf: [SignedIn, WebAuthnOptions] }, 400: error, 404: error, 410: error, 429: error },
        },
        attachValidation: true,
        preHandler: [ceremonyLimit(deps.rateLimiter, 'recovery-complete'), rejectInvalidPayload],
      },
      async (request, reply) => {
        const body = request.body as { token: string; credential?: RegistrationResponseJSON };
        if (!body.credential) return recoveryOptions(deps, body.token);
        const { token, user_id, role } = await completeRecovery(deps, body.token, body.credential, clientOf(request));
        setSessionCookie(reply, deps.config, token);
        return { user_id, role };
      },
    );
  };
}
