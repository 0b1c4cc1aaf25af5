/**
 * The one family of errors that services throw. The HTTP layer turns each into a status and a
 * `{error, message, details?}` body in one place (`http/error-handler.ts`); services never build HTTP replies.
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

/** The request itself is wrong: a field is missing, malformed or out of range. */
export class BadRequest extends AppError {
  readonly status = 400;
  constructor(message: string, details?: readonly ErrorDetail[], code = 'validation_failed') {
    super(code, message, details);
  }
}

export class Unauthenticated extends AppError {
  readonly status = 401;
  constructor(message = 'Sign in to continue.', code = 'unauthenticated') {
    super(code, message);
  }
}

export class Forbidden extends AppError {
  readonly status = 403;
  constructor(message = 'You are not allowed to do this.', code = 'forbidden', details?: readonly ErrorDetail[]) {
    super(code, message, details);
  }
}

export class NotFound extends AppError {
  readonly status = 404;
  constructor(message = 'Not found.', code = 'not_found') {
    super(code, message);
  }
}

export class Conflict extends AppError {
  readonly status = 409;
  constructor(code: string, message: string) {
    super(code, message);
  }
}

/** A link or download that existed but has expired or was already used. */
export class Gone extends AppError {
  readonly status = 410;
  constructor(message: string, code = 'gone') {
    super(code, message);
  }
}

/** Well-formed but refused on its meaning, such as a compliance violation. */
export class Unprocessable extends AppError {
  readonly status = 422;
  constructor(code: string, message: string, details?: readonly ErrorDetail[]) {
    super(code, message, details);
  }
}

export class RateLimited extends AppError {
  readonly status = 429;
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests; try again later.',
  ) {
    super('rate_limited', message);
  }
}

/** A dependency we rely on (database, market-data provider) did not answer. */
export class ServiceUnavailable extends AppError {
  readonly status = 503;
  constructor(message: string, code = 'service_unavailable') {
    super(code, message);
  }
}
