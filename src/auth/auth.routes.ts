import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthDeps } from './auth-context.js';
import {
  AuthenticationResponse,
  Empty,
  EmailVerified,
  Expiry,
  RegisterOptionsBody,
  RegisterResult,
  RegistrationResponse,
  SessionQuery,
  SessionView,
  SignedIn,
  StepUpRequired,
  StepUpResult,
  TokenQuery,
  WebAuthnOptions,
} from './auth.schema.js';
import { ceremonyLimit, clearSessionCookie, clientOf, rejectInvalidOptionalPayload, rejectInvalidPayload, setSessionCookie } from './http.js';
import { login, loginOptions, refreshSession, stepUpOptions, stepUpSession } from './login.service.js';
import { verifyEmail } from './email-links.service.js';
import { registrationOptions, verifyRegistration } from './registration.service.js';
import { authOf, sessionCookieOf } from './session-hooks.js';
import { isStepUpDue, logout } from './sessions.service.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from './webauthn.js';

const tags = ['auth'];
const error = { $ref: 'ErrorResponse#' };

/** Registration, email verification, sign-in, the session and step-up. Mounted at /api/auth. */
export function authRoutes(deps: AuthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const limit = (name: string) => ceremonyLimit(deps.rateLimiter, name);
    const refreshLimit = ceremonyLimit(deps.rateLimiter, 'session-refresh', (request) => authOf(request).userId);

    app.post(
      '/register/options',
      { schema: { tags, body: RegisterOptionsBody, response: { 200: WebAuthnOptions, 400: error, 403: error, 429: error } }, preHandler: limit('register-options') },
      async (request) => registrationOptions(deps, { email: request.body.email, displayName: request.body.display_name }),
    );

    app.post(
      '/register/verify',
      {
        schema: { tags, body: RegistrationResponse, response: { 201: RegisterResult, 400: error, 429: error } },
        attachValidation: true,
        preHandler: [limit('register-verify'), rejectInvalidPayload],
      },
      async (request, reply) => {
        const result = await verifyRegistration(deps, request.body as RegistrationResponseJSON, clientOf(request));
        return reply.status(201).send(result);
      },
    );

    app.get(
      '/email/verify',
      { schema: { tags, querystring: TokenQuery, response: { 200: EmailVerified, 404: error, 410: error } } },
      async (request) => verifyEmail(deps, request.query.token),
    );

    app.post(
      '/login/options',
      { schema: { tags, response: { 200: WebAuthnOptions, 429: error } }, preHandler: limit('login-options') },
      async () => loginOptions(deps),
    );

    app.post(
      '/login/verify',
      {
        schema: { tags, body: AuthenticationResponse, response: { 200: SignedIn, 400: error, 401: error, 403: error, 429: error } },
        attachValidation: true,
        preHandler: [limit('login-verify'), rejectInvalidPayload],
      },
      async (request, reply) => {
        const { token, user_id, role } = await login(deps, request.body as AuthenticationResponseJSON, clientOf(request));
        setSessionCookie(reply, deps.config, token);
        return { user_id, role };
      },
    );

    app.post('/logout', { schema: { tags, response: { 204: { type: 'null' } } } }, async (request, reply) => {
      await logout(deps, sessionCookieOf(request));
      clearSessionCookie(reply, deps.config);
      return reply.status(204).send(null);
    });

    app.get(
      '/session',
      {
        schema: { tags, querystring: SessionQuery, response: { 200: SessionView, 204: Type.Null(), 401: error } },
        preHandler: app.loadSession,
      },
      async (request, reply) => {
        // `?optional=1` (the web app at start-up): no session is 204, not an error the browser logs.
        if (!request.auth && request.query.optional === '1') return reply.status(204).send(null);
        const auth = authOf(request);
        return {
          user_id: auth.userId,
          email: auth.email,
          display_name: auth.displayName,
          role: auth.role,
          user_handle: auth.userHandle,
          expires_at: auth.expiresAt,
          step_up_due: isStepUpDue(deps, auth.lastVerifiedAt),
        };
      },
    );

    app.post(
      '/session/refresh',
      {
        schema: {
          tags,
          body: { anyOf: [Empty, AuthenticationResponse] },
          response: { 200: Expiry, 400: error, 401: error, 403: StepUpRequired, 429: error },
        },
        attachValidation: true,
        // Keyed by user: once a step-up is due, each call stores a challenge.
        preHandler: [app.requireSession, refreshLimit, rejectInvalidOptionalPayload],
      },
      async (request, reply) => {
        const body = request.body as Partial<AuthenticationResponseJSON> | undefined;
        const assertion = body && 'id' in body ? (body as AuthenticationResponseJSON) : undefined;
        const outcome = await refreshSession(deps, authOf(request), assertion);
        if (outcome.kind === 'step_up_required') {
          return reply.status(403).send({
            error: 'step_up_required',
            message: 'Confirm it is you with your passkey to stay signed in.',
            options: outcome.options,
          });
        }
        setSessionCookie(reply, deps.config, sessionCookieOf(request)!);
        return { expires_at: outcome.expires_at };
      },
    );

    app.post(
      '/step-up/options',
      { schema: { tags, response: { 200: WebAuthnOptions, 401: error, 429: error } }, preHandler: [app.requireSession, limit('step-up-options')] },
      async (request) => stepUpOptions(deps, authOf(request).userId),
    );

    app.post(
      '/step-up/verify',
      {
        schema: { tags, body: AuthenticationResponse, response: { 200: StepUpResult, 400: error, 401: error, 429: error } },
        attachValidation: true,
        preHandler: [app.requireSession, limit('step-up-verify'), rejectInvalidPayload],
      },
      async (request) => stepUpSession(deps, authOf(request), request.body as AuthenticationResponseJSON),
    );
  };
}
