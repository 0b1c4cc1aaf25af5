import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import { TEST_ORIGIN } from './app.js';

/**
 * The one HTTP client of the tests: a browser over `inject`. It keeps the session cookie, sends our Origin on
 * writes and a fixed user agent, and comes from its own client address (a fresh /24 per client unless one is
 * given), so per-prefix rate limits never join tests together.
 */
export const AUTH = '/api/auth';
export const SESSION_COOKIE = 'service_session';
/** The User-Agent every client sends (sessions record it as the device). */
export const USER_AGENT = 'vitest-browser/1.0';

let addressCounter = 0;
/** A fresh /24 per client, so per-prefix rate limits never join tests together. */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 8) & 255}.${addressCounter & 255}.7`;
}

export type Requester = Pick<App, 'inject'>;

export class HttpClient {
  cookie: string | undefined;
  readonly address: string;

  constructor(
    public app: Requester,
    options: { address?: string } = {},
  ) {
    this.address = options.address ?? freshAddress();
  }

  /** The same browser (address and cookie) talking to another app instance. */
  on(app: Requester): HttpClient {
    const other = new HttpClient(app, { address: this.address });
    other.cookie = this.cookie;
    return other;
  }

  /** `path` is absolute (`/api/...`) or relative to `/api/auth`. A string body is sent as is. */
  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url: path.startsWith('/') ? path : `${AUTH}/${path}`,
      remoteAddress: this.address,
      headers: {
        'user-agent': USER_AGENT,
        ...(method === 'GET' ? {} : { origin: TEST_ORIGIN }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const issued = sessionCookieOf(response);
    if (issued !== undefined) this.cookie = issued || undefined;
    return response;
  }

  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('POST', path, body, headers);
  }

  get(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('GET', path, undefined, headers);
  }
}

/** The value of a `service_session` Set-Cookie ('' when cleared), or undefined when none was sent. */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const raw = response.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const line of lines) {
    const match = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match) {
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line);
      return expired ? '' : (match[1] ?? '');
    }
  }
  return undefined;
}
