import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpProcesses, freshDataDir, randomPort, ready, startTradelab, stopped, until } from './helpers/tradelab-process.js';
import { OFFLINE } from './helpers/offline.js';

afterAll(cleanUpProcesses);

// Each test starts `tradelab serve` under tsx, which takes a while on a loaded machine.
const SLOW = 120_000;

/** Sends the headers of a POST and one byte of its body, then nothing: the connection stays open, mid-request. */
function stalledPost(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('POST /api/backtest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

describe('tradelab serve, stopping', () => {
  it('on SIGTERM with a stalled request open, closes it at the shutdown deadline and exits', async () => {
    const port = randomPort();
    // The request timeout is far off, so only the shutdown deadline can end the stalled request.
    const server = startTradelab(freshDataDir(), ['serve'], { PORT: String(port), SHUTDOWN_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '60000', IDLE_TIMEOUT_MS: '60000' });
    try {
      await ready(port);
      const socket = await stalledPost(port);
      // Until the server has read the headers the connection counts as idle, and any close ends it at once.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const signalledAt = Date.now();
      server.kill('SIGTERM');
      const exit = await Promise.race([stopped(server), new Promise((resolve) => setTimeout(() => resolve('still running'), 5_000))]);
      expect(exit).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(5_000);
      await socketClosed;
    } finally {
      server.kill('SIGKILL');
    }
  }, SLOW);
});

describe('tradelab serve, one per SQLite data directory', () => {
  it('refuses a second server on the same DATA_DIR, saying why', async () => {
    const dataDir = freshDataDir();
    const port = randomPort();
    const first = startTradelab(dataDir, ['serve'], { PORT: String(port) });
    try {
      await ready(port);
      const second = startTradelab(dataDir, ['serve'], { PORT: String(port + 1) });
      try {
        expect(await stopped(second)).toBe(1);
        expect(second.stderr()).toContain(`already serving ${dataDir}`);
        expect(second.stderr()).toContain(`pid ${first.pid}`);
        expect(second.stderr()).toContain('DATABASE_URL');
      } finally {
        second.kill('SIGKILL');
      }
      // The first one is untouched.
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      first.kill('SIGKILL');
    }
  }, SLOW);

  it('takes over the lock of a server that died without releasing it', async () => {
    const dataDir = freshDataDir();
    const port = randomPort();
    const dead = startTradelab(dataDir, ['serve'], { PORT: String(port) });
    await ready(port);
    dead.kill('SIGKILL');
    await stopped(dead);
    expect(fs.readdirSync(dataDir)).toContain('serve.pid');

    const next = startTradelab(dataDir, ['serve'], { PORT: String(port) });
    try {
      await ready(port);
      expect(fs.readFileSync(path.join(dataDir, 'serve.pid'), 'utf8').trim()).toBe(String(next.pid));
      next.kill('SIGTERM');
      expect(await stopped(next)).toBe(0);
    } finally {
      next.kill('SIGKILL');
    }
  }, SLOW);
});

describe('tradelab serve, its output', () => {
  /** `tradelab serve` with stdout on a terminal (a pseudo-terminal from `script`), or on a pipe. */
  function serveWithOutput(port: number, onTerminal: boolean): { child: ChildProcess; output: () => string } {
    const env = { ...process.env, DATA_DIR: freshDataDir(), PORT: String(port), PUBLIC_ORIGIN: `http://localhost:${port}`, LOG_LEVEL: 'info', ...OFFLINE };
    const command = [process.execPath, '--import', 'tsx', 'src/cli.ts', 'serve'];
    const child = onTerminal
      ? spawn('script', ['-qfec', command.join(' '), '/dev/null'], { env, stdio: ['pipe', 'pipe', 'ignore'] })
      : spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    return { child, output: () => output };
  }

  it('on a terminal, prints readable lines and where it is serving', async () => {
    const port = randomPort();
    const { child, output } = serveWithOutput(port, true);
    try {
      await until(async () => (output().includes(`tradelab is serving http://localhost:${port}`) ? true : undefined), 45_000);
      await fetch(`http://127.0.0.1:${port}/healthz`);
      await until(async () => (output().includes('request completed') ? true : undefined));
      expect(output()).toMatch(/\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed {2}200 in [\d.]+ ms/);
      expect(output()).not.toContain('{"level"');
    } finally {
      child.kill('SIGKILL');
    }
  }, SLOW);

  it('elsewhere, writes JSON lines only', async () => {
    const port = randomPort();
    const { child, output } = serveWithOutput(port, false);
    try {
      await ready(port);
      await until(async () => (output().includes('request completed') ? true : undefined));
      const lines = output().trim().split('\n');
      expect(lines.every((line) => typeof JSON.parse(line).level === 'number')).toBe(true);
      expect(output()).not.toContain('tradelab is serving');
    } finally {
      child.kill('SIGKILL');
    }
  }, SLOW);
});
