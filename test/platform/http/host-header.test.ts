import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { sendRaw } from './openapi-fuzz-checks.js';

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node refuses a request without one on its own, with an empty
 * 400 and none of our headers; the app refuses it instead, in the one error shape.
 */
describeEachDialect('a request without Host', (db) => {
  let app: App;
  let port: number;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
  });

  it('is a 400 missing_host in the error shape, with the security headers, on HTTP/1.1', async () => {
    for (const path of ['/healthz', '/api/symbols', '/no/such/route']) {
      const reply = await sendRaw(port, Buffer.from(`GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`));
      if (reply === 'no_reply') throw new Error(`no reply to GET ${path}`);
      expect(reply.status, path).toBe(400);
      expect(JSON.parse(reply.body.toString())).toEqual({ error: 'missing_host', message: expect.stringContaining('Host') });
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['content-security-policy']).toBeTruthy();
    }
  });

  it('is answered on HTTP/1.0, which has no Host requirement', async () => {
    const reply = await sendRaw(port, Buffer.from('GET /healthz HTTP/1.0\r\n\r\n'));
    expect(reply === 'no_reply' ? 'no reply' : reply.status).toBe(200);
  });
});
