import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { truncateClientAddress } from '../platform/audit/client-address.js';
import { MINUTE } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { BadRequest } from '../platform/errors.js';
import { fieldPath, namesOf } from '../platform/http/field-names.js';
import { rateLimit } from '../platform/http/rate-limit.js';
import type { RateLimiter } from '../platform/rate-limit/rate-limiter.js';
import type { ClientInfo } from './auth-context.js';
import { LIFETIMES, SESSION_COOKIE } from './lifetimes.js';

export function clientOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ipPrefix: truncateClientAddress(request.ip), userAgent: userAgent ? userAgent.slice(0, 256) : null };
}

/** HttpOnly, SameSite=Lax, Path=/, Secure on https; lives as long as the session (12 h, renewed on refresh). */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicOrigin.startsWith('https:'),
    path: '/',
    maxAge: LIFETIMES.session / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: config.publicOrigin.startsWith('https:'), path: '/' });
}

/** Ceremony endpoints: 20 a minute per client network, each endpoint counted on its own. */
export function ceremonyLimit(limiter: RateLimiter, name: string, keyOf?: (request: FastifyRequest) => string): preHandlerAsyncHookHandler {
  return rateLimit(limiter, `auth.${name}`, { limit: 20, windowMs: MINUTE }, keyOf);
}

/**
 * With `attachValidation`, a WebAuthn payload that does not have the shape of one is a 400
 * `invalid_payload` (the code the auth API promises), not the generic `validation_failed`.
 */
export const rejectInvalidPayload: preHandlerAsyncHookHandler = async (request) => {
  if (request.validationError) throw invalidPayload(request.validationError);
};

/** As `rejectInvalidPayload`, but a request without a body passes (an optional WebAuthn payload). */
export const rejectInvalidOptionalPayload: preHandlerAsyncHookHandler = async (request) => {
  if (request.body === undefined || request.body === null) return;
  if (request.validationError) throw invalidPayload(request.validationError);
};

function invalidPayload(error: NonNullable<FastifyRequest['validationError']>): BadRequest {
  const details = (error.validation ?? []).slice(0, 10).map((issue: { instancePath: string; message?: string }) => ({
    field: fieldPath('body', namesOf(issue.instancePath)),
    message: issue.message ?? 'is invalid',
  }));
  return new BadRequest('invalid_payload', 'The request is not a well-formed WebAuthn payload.', details);
}
