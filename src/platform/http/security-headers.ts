import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

type HeaderMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: Error) => void) => void;

// helmet is @fastify/helmet's dependency, not ours: load the very (CommonJS) copy it runs, for replies made
// outside its hooks.
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (
  options: FastifyHelmetOptions,
) => HeaderMiddleware;

/** A content security policy as directive name → sources (an empty list is a bare directive). */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * The one content security policy: everything from our origin only, no inline script, no framing,
 * no plugins. The web app is built to live within it. `inlineStyles` adds `'unsafe-inline'` to
 * `style-src` and nothing else, for Swagger UI at /docs, which sets inline styles.
 */
export function cspDirectives(publicOrigin: string, options: { inlineStyles?: boolean } = {}): CspDirectives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': options.inlineStyles ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(isHttps(publicOrigin) ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** The `Content-Security-Policy` header value for `directives`, as helmet writes it. */
export function cspHeaderValue(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join(';');
}

function helmetOptions(publicOrigin: string): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(publicOrigin) },
    // HSTS only makes sense (and only works) over https.
    strictTransportSecurity: isHttps(publicOrigin) ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    // Agrees with `frame-ancestors 'none'` for browsers that only know the older header.
    xFrameOptions: { action: 'deny' },
  };
}

/**
 * Security headers on every response that goes through the request pipeline: helmet's middleware, built once.
 * (`@fastify/helmet`'s hook builds it again from the options on every request, CSP parsing included: about 6 % of
 * the CPU of a session-checked GET in the issue 17 profile, and as much of `/healthz`. The headers are the same.)
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicOrigin: string): Promise<void> {
  const setHeaders = helmet(helmetOptions(publicOrigin));
  app.addHook('onRequest', (request, reply, done) => setHeaders(request.raw, reply.raw, done));
}

/**
 * The same headers, for replies Fastify makes outside the request pipeline (a malformed URL is
 * refused before routing, so no hook runs): call the returned function before sending.
 */
export function securityHeadersSetter(publicOrigin: string): (request: FastifyRequest, reply: FastifyReply) => void {
  const setHeaders = helmet(helmetOptions(publicOrigin));
  return (request, reply) =>
    setHeaders(request.raw, reply.raw, (error) => {
      if (error) throw error;
    });
}

function isHttps(publicOrigin: string): boolean {
  return publicOrigin.startsWith('https:');
}

/**
 * `Cache-Control: no-store` on every reply to a request that carried a cookie or an `Authorization` header, or that
 * sets a cookie: such a reply may be someone's own data (a signed-in library, a backtest of their strategy), and
 * neither a browser's cache nor a shared one may keep it. Decided by the request, not by route, so that every
 * session-scoped route, present and future, is covered without being told. A reply that chose its caching itself
 * keeps it: the web app's files, which hold nothing personal.
 */
export function registerPrivateReplies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (reply.getHeader('cache-control') !== undefined) return;
    if (request.headers.cookie || request.headers.authorization || reply.getHeader('set-cookie') !== undefined) {
      reply.header('cache-control', 'no-store');
    }
  });
}

/**
 * The security headers as name → value, for replies written straight to a socket, outside Fastify and any request
 * (errors of Node's HTTP parser): what helmet would set, gathered once.
 */
export function staticSecurityHeaders(publicOrigin: string): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
  };
  helmet(helmetOptions(publicOrigin))({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}
