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
