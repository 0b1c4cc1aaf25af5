import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { testConfig } from '../../helpers/app.js';

/**
 * An app on a data directory of its own, and a gate: a test route calls `arrived()` and awaits `gate`, the test awaits
 * `inHandler` and calls `release()` when the request in hand may finish.
 */
async function appWithGate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-shutdown-'));
  const app = await buildApp(testConfig({ DATA_DIR: dir }), { logLevel: 'silent' });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
  return { app, dir, gate, release, arrived, inHandler };
}

it('lets a request in hand finish before closing the database it owns', async () => {
  const { app, dir, gate, release, arrived, inHandler } = await appWithGate();
  app.get('/fixture/slow', async () => {
    arrived();
    await gate;
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(app.platform.db);
    return { one: rows[0]?.one };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  const answer = fetch(`${url}/fixture/slow`).then(async (response) => ({ status: response.status, body: await response.json() }));
  await inHandler;
  const closed = app.close();
  release();
  expect(await answer).toEqual({ status: 200, body: { one: 1 } });
  await closed;
  fs.rmSync(dir, { recursive: true, force: true });
});

it('waits, on close, for a handler whose client has gone before it closes the database', async () => {
  const { app, dir, gate, release, arrived, inHandler } = await appWithGate();
  let handlerOutcome: Promise<string> | undefined;
  app.get('/fixture/slow', async () => {
    arrived();
    handlerOutcome = gate
      .then(() => sql<{ one: number }>`select 1 as one`.execute(app.platform.db))
      .then(({ rows }) => `read ${rows[0]?.one}`, (error: Error) => `failed: ${error.message}`);
    return { outcome: await handlerOutcome };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  const client = new AbortController();
  const answer = fetch(`${url}/fixture/slow`, { signal: client.signal }).catch(() => 'aborted');
  await inHandler;
  client.abort();
  expect(await answer).toBe('aborted');
  let closed = false;
  const closing = app.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(closed).toBe(false);
  release();
  await closing;
  expect(await handlerOutcome).toBe('read 1');
  fs.rmSync(dir, { recursive: true, force: true });
});

it('does not wait, on close, for a request whose connection the HTTP parser closed before the request was handled', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-shutdown-'));
  const app = await buildApp(testConfig({ DATA_DIR: dir }), { logLevel: 'silent' });
  const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  // Headers and a malformed chunk in one packet: the request starts, then the parser refuses the body and closes.
  const reply = await new Promise<string>((resolve) => {
    let received = '';
    const socket = net.connect(Number(url.port), url.hostname, () =>
      socket.write(`POST /api/strategies HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n`),
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
  expect(reply).toMatch(/^HTTP\/1\.1 400 /);
  const closing = app.close().then(() => 'closed');
  const stuck = new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting after 5 s'));
  expect(await Promise.race([closing, stuck])).toBe('closed');
  fs.rmSync(dir, { recursive: true, force: true });
});

it('answers a request that arrives while closing with 503 shutting_down in the error shape, with Retry-After', async () => {
  const { app, dir, gate, release, arrived, inHandler } = await appWithGate();
  app.get('/fixture/slow', async () => {
    arrived();
    await gate;
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;

  // A kept-alive connection with a request in hand stays open while the server drains; a request pipelined on it
  // after the close began is the one a load balancer should send elsewhere.
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /fixture/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await inHandler;
  const closed = app.close();
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  await closed;
  await ended;

  const replies = received.split(/(?=HTTP\/1\.1 )/);
  expect(replies).toHaveLength(2);
  expect(replies[0]).toMatch(/^HTTP\/1\.1 200/);
  const [head, body] = replies[1]!.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 503/);
  expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
  expect(head).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
  expect(head).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(body!)).toEqual({ error: 'shutting_down', message: expect.stringMatching(/restart|shutting down/i) });
  fs.rmSync(dir, { recursive: true, force: true });
});
