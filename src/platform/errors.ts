/**
 * The one family of errors that services throw. The HTTP layer turns each into a status and a
 * `{error, message, details?}` body in one place (`http/error-handler.ts`); services never build HTTP replies.
 *
 * Every error is built the same way, `new X(code, message, details?)`: `code` becomes the body's `error`,
 * `message` its `message`, `details` its `details`. There are no default codes or messages; `unauthenticated()`
 * builds the common "sign in" refusal.
 * RateLimited and Busy are the variations: `new RateLimited(code, message, retryAfterSeconds)` (no details; the seconds go in `Retry-After`).
 */
export interface ErrorDetail {
  readonly field?: string;
  readonly message: string;
  readonly [key: string]: unknown;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  readonly details: readonly ErrorDetail[] | undefined;

  constructor(
    readonly code: string,
    message: string,
    details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** The request itself is wrong: a field is missing, malformed or out of range (usually code `validation_failed`). */
export class BadRequest extends AppError {
  readonly status = 400;
}

export class Unauthenticated extends AppError {
  readonly status = 401;
}

export class Forbidden extends AppError {
  readonly status = 403;
}

export class NotFound extends AppError {
  readonly status = 404;
}

export class Conflict extends AppError {
  readonly status = 409;
}

/** A link or download that existed but has expired or was already used. */
export class Gone extends AppError {
  readonly status = 410;
}

/** Well-formed but refused on its meaning, such as a compliance violation. */
export class Unprocessable extends AppError {
  readonly status = 422;
}

/** Too many requests: `retryAfterSeconds` is sent as the `Retry-After` header. */
export class RateLimited extends AppError {
  readonly status = 429;
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

/** A dependency we rely on (database, market-data provider) did not answer. */
export class ServiceUnavailable extends AppError {
  readonly status = 503;
}

/** The database is held by other writers past its busy timeout: `retryAfterSeconds` is sent as `Retry-After`. */
export class Busy extends AppError {
  readonly status = 503;
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

/** The 401 for a request that needs a signed-in session and has none (or a revoked one). */
export function unauthenticated(): Unauthenticated {
  return new Unauthenticated('unauthenticated', 'Sign in to continue.');
}
