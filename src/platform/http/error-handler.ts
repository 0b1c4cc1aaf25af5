import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Busy, RateLimited, type ErrorDetail } from '../errors.js';
import { databaseBusy, isDatabaseBusy } from '../db/busy.js';

export interface ErrorBody {
  error: string;
  message: string;
  details?: readonly ErrorDetail[];
}

/** Fastify's own request errors, by code: the status and what we tell the client. */
const FRAMEWORK_ERRORS: Readonly<Record<string, { status: number; error: string; message: string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'malformed_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    error: 'malformed_json',
    message: 'The request says it carries JSON but the body is empty.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    error: 'bad_request',
    message: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, error: 'payload_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    error: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
};

/** What we tell the client about a request Fastify refuses before routing it, by error code. */
const UNROUTABLE_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'The URL is not valid: it holds a malformed percent-encoding.',
  FST_ERR_MAX_PARAM_LENGTH: 'A part of the URL is too long.',
};

/**
 * Fastify's `frameworkErrors` option: requests it refuses before routing (a malformed URL) get a
 * 400 `bad_request` in our error shape, with the security headers (`setSecurityHeaders`) and the
 * `x-request-id` header, since none of the app's hooks runs for them.
 */
export function frameworkErrorHandler(
  setSecurityHeaders: (request: FastifyRequest, reply: FastifyReply) => void,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    setSecurityHeaders(request, reply);
    request.log.info({ code: error.code }, 'request refused');
    const message = UNROUTABLE_MESSAGES[error.code] ?? 'The request could not be understood.';
    void reply.status(400).header('x-request-id', request.id).send(body('bad_request', message));
  };
}

/**
 * The one place where errors become HTTP replies. Client mistakes get a 4xx naming the problem;
 * anything else is a 500 that says nothing of its cause but the request id, and is logged in full.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const error = isDatabaseBusy(thrown) ? Object.assign(databaseBusy(), { cause: thrown }) : thrown;
    if (error instanceof AppError) {
      if (error instanceof RateLimited || error instanceof Busy) reply.header('retry-after', String(error.retryAfterSeconds));
      const level = error.status >= 500 ? 'error' : 'info';
      request.log[level]({ err: error.status >= 500 ? error : undefined, code: error.code }, 'request refused');
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }

    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const details = fastifyError.validation.map((issue) => validationDetail(fastifyError.validationContext, issue));
      const message = details.map((d) => `${d.field}: ${d.message}`).join('; ');
      return reply.status(400).send(body('validation_failed', `Invalid request. ${message}`, details));
    }

    const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
    if (known) return reply.status(known.status).send(body(known.error, known.message));

    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.status(status).send(body('bad_request', 'The request could not be understood.'));
    }

    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(body('internal_error', `Something went wrong on our side. Quote request id ${request.id} if you report it.`));
  });

}

/** The JSON 404 for a request no route matches (sent by the web-app host, which also answers page paths). */
export function notFoundBody(request: FastifyRequest): ErrorBody {
  return body('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
}

function body(error: string, message: string, details?: readonly ErrorDetail[]): ErrorBody {
  return details && details.length > 0 ? { error, message, details } : { error, message };
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function validationDetail(context: string | undefined, issue: AjvIssue): ErrorDetail {
  const segments = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    segments.push(issue.params.missingProperty);
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    segments.push(issue.params.additionalProperty);
    return { field: fieldName(context, segments), message: 'is not a known field' };
  }
  return { field: fieldName(context, segments), message: issue.message ?? 'is invalid' };
}

function fieldName(context: string | undefined, segments: string[]): string {
  return [context ?? 'body', ...segments].join('.');
}
