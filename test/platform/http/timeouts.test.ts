import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/dialects.js';

/**
 * A client that sends its headers and one byte of a body, then nothing, is cut off once the request timeout has
 * passed, and so is one that never finishes its headers; meanwhile other clients are served. The timeouts are
 * configured short here, as an operator would set them (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS).
 */
const REQUEST_TIMEOUT_MS = 600;
const HEADERS_TIMEOUT_MS = 300;

describe('connection timeouts', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildTestApp(database.handle, {
      env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** Opens a connection, writes `bytes`, and answers how long until the server closed it (or `null` within `patienceMs`). */
  function stall(bytes: string, patienceMs: number): Promise<{ closedAfterMs: number | null; received: string }> {
    return new Promise((resolve) => {
      const started = Date.now();
      let received = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => undefined);
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ closedAfterMs: null, received });
      }, patienceMs);
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve({ closedAfterMs: Date.now() - started, received });
      });
    });
  }

  it('closes a POST that sent its headers and one byte of its body once the request timeout has passed', async () => {
    const stalled = stall(
      'POST /api/backtest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      REQUEST_TIMEOUT_MS + 2_000,
    );
    // Served while the stalled one hangs.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const { closedAfterMs } = await stalled;
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs!).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
  });

  it('closes a connection that never finishes its headers once the headers timeout has passed', async () => {
    const { closedAfterMs } = await stall('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: a', HEADERS_TIMEOUT_MS + 2_000);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(closedAfterMs!).toBeLessThan(HEADERS_TIMEOUT_MS + 1_000);
  });
});
