import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BadRequest } from '../platform/errors.js';
import type { AuthDeps } from './auth-context.js';
import { Credential, CredentialParams, RegistrationResponse, RenameBody, WebAuthnOptions } from './auth.schema.js';
import { addCredential, addCredentialOptions, deleteMyCredential, listMyCredentials, renameMyCredential } from './credentials.service.js';
import { ceremonyLimit, clearSessionCookie, rejectInvalidPayload } from './http.js';
import { authOf } from './session-hooks.js';
import type { RegistrationResponseJSON } from './webauthn.js';

const tags = ['auth'];
const error = { $ref: 'ErrorResponse#' };

/** The signed-in user's passkeys: list, add another device, rename, delete. Mounted at /api/auth. */
export function credentialRoutes(deps: AuthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/credentials',
      { schema: { tags, response: { 200: Type.Array(Credential), 401: error } }, preHandler: app.requireSession },
      async (request) => listMyCredentials(deps, authOf(request)),
    );

    app.post(
      '/credentials/add/options',
      {
        schema: { tags, response: { 200: WebAuthnOptions, 401: error, 429: error } },
        preHandler: [app.requireSession, ceremonyLimit(deps.rateLimiter, 'add-options')],
      },
      async (request) => addCredentialOptions(deps, authOf(request)),
    );

    app.post(
      '/credentials/add/verify',
      {
        schema: { tags, body: RegistrationResponse, response: { 201: Credential, 400: error, 401: error, 429: error } },
        attachValidation: true,
        preHandler: [app.requireSession, ceremonyLimit(deps.rateLimiter, 'add-verify'), rejectInvalidPayload],
      },
      async (request, reply) => {
        const added = await addCredential(deps, authOf(request), request.body as RegistrationResponseJSON);
        return reply.status(201).send(added);
      },
    );

    app.patch(
      '/credentials/:id',
      {
        schema: { tags, params: CredentialParams, body: RenameBody, response: { 200: Credential, 400: error, 401: error, 404: error } },
        preHandler: app.requireSession,
      },
      async (request) => {
        const label = request.body.label.trim();
        if (label.length < 1 || label.length > 64) {
          throw new BadRequest('validation_failed', 'The label must be 1 to 64 characters.', [{ field: 'body.label', message: 'must be 1 to 64 characters after trimming' }]);
        }
        return renameMyCredential(deps, authOf(request), request.params.id, label);
      },
    );

    app.delete(
      '/credentials/:id',
      {
        schema: { tags, params: CredentialParams, response: { 204: { type: 'null' }, 401: error, 404: error, 409: error } },
        preHandler: app.requireSession,
      },
      async (request, reply) => {
        const auth = authOf(request);
        await deleteMyCredential(deps, auth, request.params.id);
        // The session of the deleted passkey went with it.
        if (auth.credentialId === request.params.id) clearSessionCookie(reply, deps.config);
        return reply.status(204).send(null);
      },
    );
  };
}
