import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseFault } from '../db/database-faults.js';
import { AppError, RateLimited, ServiceUnavailable, type ErrorDetail } from '../errors.js';
import { fieldPath, namesOf } from './field-names.js';
import { countRefusal } from './rate-limit.js';

/** A validation refusal lists at most this many problems (and says how many there were). */
export const LISTED_PROBLEMS = 10;

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

/** Errors of Node's HTTP parser (the `clientError` event), by code: status, reason phrase, our code and message. */
const PARSER_ERRORS: Readonly<Record<string, { status: number; reason: string; error: string; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', error: 'request_timeout', message: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'headers_too_large',
    message: 'The request headers are too large.',
  },
};
const PARSER_ERROR = { status: 400, reason: 'Bad Request', error: 'bad_request', message: 'The request is not well-formed HTTP.' };

/**
 * Fastify's `clientErrorHandler` option: a request Node's HTTP parser refuses (malformed, headers over the limit,
 * too slow) never reaches Fastify, so its answer is written to the socket here, in our error shape and with the
 * security headers (`headers`, from `staticSecurityHeaders`), and the connection closed.
 */
export function clientErrorHandler(headers: Readonly<Record<string, string>>): (this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex) => void {
  return function (error, socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const known = (error.code && PARSER_ERRORS[error.code]) || PARSER_ERROR;
    this.log.info({ code: error.code, status: known.status }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const payload = JSON.stringify(body(known.error, known.message));
      const lines = [
        `HTTP/1.1 ${known.status} ${known.reason}`,
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(payload)}`,
        'cache-control: no-store',
        'connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n${payload}`);
    }
    socket.destroy();
  };
}

/** Refusals that shed load rather than report a fault: logged as one warn line, without the stack. */
const SHEDDING_LOAD = new Set(['busy', 'shutting_down']);

/**
 * The one place where errors become HTTP replies. Client mistakes get a 4xx naming the problem;
 * anything else is a 500 that says nothing of its cause but the request id, and is logged in full.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    // A database that is down, restarting or full is a 503 with Retry-After, not a 500.
    const error = thrown instanceof AppError ? thrown : (databaseFault(thrown) ?? thrown);
    const refusal = clientRefusal(error);
    if (!refusal) {
      request.log.error({ err: thrown }, 'unhandled error');
      return reply
        .status(500)
        .send(body('internal_error', `Something went wrong on our side. Quote request id ${request.id} if you report it.`));
    }
    // Shedding load (a full sweep queue, a busy database, a server closing) is expected under load: one warn line each,
    // no stack; a flood of them must not cost more than the work refused.
    if (SHEDDING_LOAD.has(refusal.body.error)) request.log.warn({ code: refusal.body.error }, 'request refused');
    else if (refusal.status >= 500) request.log.error({ err: thrown, code: refusal.body.error }, 'request refused');
    else request.log.info({ code: refusal.body.error }, 'request refused');
    if (refusal.status !== 429 && refusal.status < 500) {
      const limited = await countedRefusal(request, reply);
      if (limited) return sendRefusal(reply, limited);
    }
    return sendRefusal(reply, refusal);
  });
}

interface Refusal {
  readonly status: number;
  readonly body: ErrorBody;
  readonly retryAfterSeconds?: number;
}

/** The reply for an error that is the client's (or a dependency's, for 503), or undefined for a failure of ours. */
function clientRefusal(error: FastifyError | AppError | Error): Refusal | undefined {
  if (error instanceof AppError) {
    const retryAfterSeconds = error instanceof RateLimited || error instanceof ServiceUnavailable ? error.retryAfterSeconds : undefined;
    const retry = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
    return { status: error.status, body: body(error.code, error.message, error.details), ...retry };
  }

  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const issues = fastifyError.validation;
    const details = issues.slice(0, LISTED_PROBLEMS).map((issue) => validationDetail(fastifyError.validationContext, issue));
    const listed = details.map((d) => `${d.field}: ${d.message}`).join('; ');
    const count = issues.length > LISTED_PROBLEMS ? ` (${issues.length} problems; the first ${LISTED_PROBLEMS} are listed)` : '';
    return { status: 400, body: body('validation_failed', `Invalid request${count}. ${listed}`, details) };
  }

  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return { status: known.status, body: body(known.error, known.message) };

  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: body('bad_request', 'The request could not be understood.') };
  }
  return undefined;
}

/** Counts a refused request toward its route's rate limits: the 429 when that spends one, else undefined. */
async function countedRefusal(request: FastifyRequest, reply: FastifyReply): Promise<Refusal | undefined> {
  try {
    await countRefusal(request, reply);
    return undefined;
  } catch (error) {
    if (error instanceof RateLimited) return clientRefusal(error);
    // The refusal stands even when the limiter cannot count it.
    request.log.warn({ err: error }, 'refused request not counted toward the rate limit');
    return undefined;
  }
}

function sendRefusal(reply: FastifyReply, refusal: Refusal) {
  if (refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
  return reply.status(refusal.status).send(refusal.body);
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
  const segments = namesOf(issue.instancePath);
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
  return fieldPath(context ?? 'body', segments);
}
