/**
 * The one way the web app talks to the server: JSON over same-origin fetch with the session cookie.
 * The browser itself adds the `Origin` header the server checks to every POST, PATCH and DELETE, and
 * nothing secret is ever kept in script-readable storage: the session lives in an HttpOnly cookie.
 */

/** A refusal from the API, as `{error, message, details?}`; `field` names the request field it concerns, if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly { field?: string; message?: string }[] = [],
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The request field this error is about (`body.symbol` → `symbol`), or undefined. */
  get field(): string | undefined {
    const named = this.details.find((detail) => detail.field)?.field;
    return named?.replace(/^(body|query|params)\./, '');
  }
}

export interface Answer<T> {
  readonly data: T;
  readonly headers: Headers;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as { error?: string; message?: string; details?: { field?: string; message?: string }[] };
    throw new ApiError(
      response.status,
      error.error ?? 'http_error',
      error.message ?? `The server answered ${response.status}.`,
      error.details ?? [],
      (parsed ?? {}) as Record<string, unknown>,
    );
  }
  return { data: parsed as T, headers: response.headers };
}

export const api = {
  get: async <T>(path: string) => (await call<T>('GET', path)).data,
  getWithHeaders: <T>(path: string) => call<T>('GET', path),
  post: async <T>(path: string, body?: unknown) => (await call<T>('POST', path, body)).data,
  patch: async <T>(path: string, body: unknown) => (await call<T>('PATCH', path, body)).data,
  delete: async (path: string) => void (await call<unknown>('DELETE', path)),
};

/** A sentence for any thrown value, for showing beside a form. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
