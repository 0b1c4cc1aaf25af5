import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { signedInAccount } from '../../helpers/accounts.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { freshAddress, HttpClient, SESSION_COOKIE } from '../../helpers/http-client.js';

/**
 * DESIGN's order of checks on every route: Origin (403) → session and role (401, 403) → validation (400) → the
 * route's own refusals. The routes come from `/openapi.json`; a route is private when its `security` requires the
 * session (no empty alternative), and needs a role when it names one in `x-required-role`. So a new private route is
 * walked as soon as it exists.
 */
interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly private: boolean;
  readonly role: string | undefined;
}

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => {
        const security = operation.security as Record<string, unknown>[] | undefined;
        const needsSession = security !== undefined && security.length > 0 && security.every((option) => Object.keys(option).length > 0);
        return { method: method.toUpperCase() as Operation['method'], path, private: needsSession, role: operation['x-required-role'] as string | undefined };
      }),
  );
}

/** Requests no route could accept: a malformed path parameter, an unknown query parameter, a bad body. */
function malformedRequests(operation: Operation): { url: string; payload?: string }[] {
  const url = `${operation.path.replaceAll(/\{[^}]+\}/g, 'x')}?limit=x&no_such_parameter=1`;
  if (operation.method === 'GET') return [{ url }];
  return [{ url }, { url, payload: '{"no_such_field": [1]}' }, { url, payload: '{"truncated": ' }, { url, payload: '[]' }];
}

describeEachDialect('order of checks on every private route', (db) => {
  let app: App;
  let operations: Operation[];
  let userCookie: string;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    operations = operationsOf((await app.inject({ url: '/openapi.json' })).json());
    userCookie = (await signedInAccount(new HttpClient(app), db().handle.db)).client.cookie!;
  });

  afterAll(async () => {
    await app.close();
  });

  const send = (operation: Operation, request: { url: string; payload?: string }, headers: Record<string, string>) =>
    app.inject({
      method: operation.method,
      url: request.url,
      remoteAddress: freshAddress(),
      headers: { ...headers, ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });

  it('reads which routes are private from the document, and leaves the public ones out', () => {
    const names = (filter: (operation: Operation) => boolean) => operations.filter(filter).map(({ method, path }) => `${method} ${path}`);
    const privateRoutes = names((operation) => operation.private);
    expect(privateRoutes).toEqual(
      expect.arrayContaining([
        'GET /api/gdpr/exports/{id}/download',
        'POST /api/gdpr/erase',
        'POST /api/gdpr/export',
        'POST /api/backtest/run',
        'GET /api/auth/credentials',
        'POST /api/strategies',
        'POST /api/trade-window/orders',
        'POST /api/admin/breach/notify',
      ]),
    );
    for (const publicRoute of ['GET /healthz', 'GET /api/templates', 'GET /api/symbols', 'POST /api/backtest', 'POST /api/auth/login/options', 'GET /api/strategies', 'GET /api/auth/session']) {
      expect(privateRoutes).not.toContain(publicRoute);
    }
    expect(names((operation) => operation.role === 'admin')).toEqual(
      expect.arrayContaining(['GET /api/admin/users', 'GET /api/admin/audit', 'GET /api/admin/breach', 'POST /api/admin/breach/notify']),
    );
  });

  it('answers an anonymous malformed request to any private route 401, naming nothing of its parameters', async () => {
    const wrong: string[] = [];
    for (const operation of operations.filter((candidate) => candidate.private)) {
      for (const request of malformedRequests(operation)) {
        const response = await send(operation, request, { origin: TEST_ORIGIN });
        if (response.statusCode !== 401 || response.json().error !== 'unauthenticated') {
          wrong.push(`${operation.method} ${request.url} ${request.payload ?? ''} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers a signed-in non-admin 403 on an admin route before looking at the request', async () => {
    const wrong: string[] = [];
    for (const operation of operations.filter((candidate) => candidate.role === 'admin')) {
      for (const request of malformedRequests(operation)) {
        const response = await send(operation, request, { origin: TEST_ORIGIN, cookie: `${SESSION_COOKIE}=${userCookie}` });
        if (response.statusCode !== 403 || response.json().error !== 'forbidden') {
          wrong.push(`${operation.method} ${request.url} ${request.payload ?? ''} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('checks the Origin of a state-changing request before the session', async () => {
    const wrong: string[] = [];
    for (const operation of operations.filter((candidate) => candidate.private && candidate.method !== 'GET')) {
      const [request] = malformedRequests(operation);
      const response = await send(operation, request!, { origin: 'https://evil.example' });
      if (response.statusCode !== 403 || response.json().error !== 'origin_mismatch') wrong.push(`${operation.method} ${operation.path} → ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});
