import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { testConfig } from '../../helpers/app.js';

it('lets a request in hand finish before closing the database it owns', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-shutdown-'));
  const app = await buildApp(testConfig({ DATA_DIR: dir }), { logLevel: 'silent' });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-shutdown-'));
  const app = await buildApp(testConfig({ DATA_DIR: dir }), { logLevel: 'silent' });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
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
