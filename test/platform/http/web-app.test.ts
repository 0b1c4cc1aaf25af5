import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/dialects.js';

/**
 * A stand-in build: the host's job is routing and caching, whatever the files hold. It sits in a folder
 * beside `secret.txt`, which no URL may reach.
 */
function fakeBuild(): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'tradelab-web-'));
  writeFileSync(path.join(parent, 'secret.txt'), 'outside the build');
  const root = path.join(parent, 'root');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>tradelab</title><script type="module" src="/assets/app-1a2b.js"></script>');
  writeFileSync(path.join(root, 'assets/app-1a2b.js'), 'console.log("app")');
  writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

describe('the web-app host', () => {
  let app: App;
  let unbuilt: App;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase('sqlite');
    app = await buildApp(database.handle, fakeBuild());
    unbuilt = await buildApp(database.handle, mkdtempSync(path.join(os.tmpdir(), 'tradelab-empty-')));
    close = async () => {
      await app.close();
      await unbuilt.close();
      await database.drop();
    };
  });
  afterAll(async () => close());

  async function buildApp(handle: Parameters<typeof buildTestApp>[0], webRoot: string) {
    return buildTestApp(handle, { webRoot });
  }

  it('answers / and every page path with index.html, revalidated on each visit, under the CSP', async () => {
    for (const url of ['/', '/devices', '/verify-email?token=abc', '/compare']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.body).toContain('/assets/app-1a2b.js');
    }
  });

  it('answers a revalidation of index.html with 304 while it is unchanged', async () => {
    const first = await app.inject({ url: '/devices' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({ url: '/sign-in', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await app.inject({ url: '/sign-in', headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
  });

  it('serves hashed assets as immutable and other files as revalidated', async () => {
    const asset = await app.inject({ url: '/assets/app-1a2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD like GET, without a body', async () => {
    for (const url of ['/', '/compare', '/assets/app-1a2b.js']) {
      const response = await app.inject({ method: 'HEAD', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBeDefined();
      expect(response.body, url).toBe('');
    }
  });

  it('serves nothing outside the build, however the path is spelled', async () => {
    for (const url of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('outside the build');
    }
  });

  it('keeps the API, the docs and missing files as JSON 404s, also when the path is encoded or has doubled slashes', async () => {
    for (const url of [
      '/api/nope',
      '/api',
      '/openapi.json/x',
      '/docs/nope.js',
      '/assets/missing.js',
      '/assets/missing',
      '/assets/',
      '/robots.txt',
      '/%61pi/nope',
      '//api/nope',
      '/api%2Fnope',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    const post = await app.inject({ method: 'POST', url: '/devices', headers: { origin: 'http://localhost:3000' }, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().error).toBe('not_found');
  });

  it('without a build, says how to make one and leaves the API working', async () => {
    const page = await unbuilt.inject({ url: '/devices' });
    expect(page.statusCode).toBe(503);
    expect(page.json()).toMatchObject({ error: 'web_app_not_built' });
    expect((await unbuilt.inject({ url: '/api/templates' })).statusCode).toBe(200);
    expect((await unbuilt.inject({ url: '/api/nope' })).statusCode).toBe(404);
  });
});
