import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';

/**
 * Requests refused by Node's HTTP parser, before Fastify sees a request (a malformed request line, headers over the
 * limit, a request that took too long), and by Fastify's body parser, answer in the one error shape
 * `{error, message}` with the security headers, like every other error.
 */
describeEachDialect('errors of the HTTP parser', (db) => {
  let app: App;
  let port: number;

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { env: { BODY_LIMIT_BYTES: '2048' } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
  });

  /** Sends raw bytes and reads the whole answer (the server closes the connection after a parser error). */
  function exchange(request: string, onServerSocket?: (socket: net.Socket) => void): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    if (onServerSocket) app.server.once('connection', onServerSocket);
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      });
    });
  }

  function expectOurShape(answer: { headers: Record<string, string>; body: string }, error: string): void {
    expect(JSON.parse(answer.body)).toEqual({ error, message: expect.any(String) });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['cache-control']).toBe('no-store');
  }

  it('a malformed request line is a 400 in our shape', async () => {
    const answer = await exchange('NOT A REQUEST\r\n\r\n');
    expect(answer.status).toBe(400);
    expectOurShape(answer, 'bad_request');
  });

  it('headers over the limit are a 431 in our shape', async () => {
    const answer = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expectOurShape(answer, 'headers_too_large');
  });

  it('a request that took too long is a 408 in our shape', async () => {
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    const answer = await exchange('POST /api/backtest HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{', (socket) => {
      setImmediate(() => app.server.emit('clientError', timeout, socket));
    });
    expect(answer.status).toBe(408);
    expectOurShape(answer, 'request_timeout');
  });

  it.each([
    ['malformed JSON', '{"a":', 'application/json', 400, 'malformed_json'],
    ['a body over the limit', JSON.stringify({ a: 'x'.repeat(4000) }), 'application/json', 413, 'payload_too_large'],
    ['another media type', 'a=1', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
  ])('%s is answered in our shape with the security headers', async (_name, payload, contentType, status, error) => {
    const response = await app.inject({ method: 'POST', url: '/api/backtest', payload, headers: { origin: TEST_ORIGIN, 'content-type': contentType } });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error, message: expect.any(String) });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
