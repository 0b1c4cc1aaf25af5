import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendMethodNotAllowed } from './allowed-methods.js';
import { notFoundBody } from './error-handler.js';

/** Where `vite build` writes the web app: `dist/web` at the repository root (same path from `src/` and `dist/`). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

/**
 * Paths that belong to the API and the operator's endpoints, or hold only files (`/assets`): never answered
 * with the web app, so a missing asset or API route is a JSON 404, not a page.
 */
const SERVER_PATHS = ['/api', '/docs', '/openapi.json', '/healthz', '/readyz', '/assets'];

/**
 * Serves the built single-page app at `/`. Hashed files under `/assets/` are cached for a year;
 * `index.html` is revalidated every time, so a deploy takes effect at the next navigation. Any other
 * GET for a page path (no file extension, not an API path) answers `index.html`, for the app's own
 * router; a known path asked with another method is a 405 with `Allow` (`allowedMethods`); everything else that
 * matches no route stays a JSON 404. Without a build, pages say how to
 * make one and the API works as before.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string = DEFAULT_WEB_ROOT,
  allowedMethods: (request: FastifyRequest) => readonly string[] = () => [],
): Promise<void> {
  const index = readIndex(webRoot);
  const built = index !== undefined;
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const immutable = filePath.startsWith(path.join(webRoot, 'assets') + path.sep);
        response.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webRoot }, 'the web app is not built (npm run build): pages answer 503, the API works');
  }

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(request);
    if (allowed.length > 0) return sendMethodNotAllowed(request, reply, allowed);
    if (!isPagePath(request)) return reply.status(404).send(notFoundBody(request));
    if (!built) {
      return reply
        .status(503)
        .send({ error: 'web_app_not_built', message: 'The web app has not been built. Run `npm run build`, then reload.' });
    }
    return sendIndex(request, reply, index);
  });
  if (index) app.get('/', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply, index));
}

interface IndexPage {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * index.html, read once: every page path answers it, so it is served from memory (three times the rate of
 * reading the file each time). Like the asset list, it changes with a restart after a new build.
 */
function readIndex(webRoot: string): IndexPage | undefined {
  const file = path.join(webRoot, 'index.html');
  if (!existsSync(file)) return undefined;
  const body = readFileSync(file);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

function sendIndex(request: FastifyRequest, reply: FastifyReply, index: IndexPage) {
  reply.header('cache-control', 'no-cache').header('etag', index.etag).type('text/html; charset=utf-8');
  if (request.headers['if-none-match'] === index.etag) return reply.status(304).send();
  return reply.send(index.body);
}

function isPagePath(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = normalisedPathname(request.url);
  if (pathname === undefined) return false;
  if (SERVER_PATHS.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}

/**
 * The path as the router saw it: percent-decoded, repeated slashes collapsed. Without this `/%61pi/x`,
 * `//api/x` or `/api%2Fx` would slip past the prefix check and answer an API client with index.html.
 */
function normalisedPathname(url: string): string | undefined {
  try {
    return decodeURIComponent(url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/');
  } catch {
    return undefined;
  }
}
