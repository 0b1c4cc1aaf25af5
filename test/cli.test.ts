import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-cli-'));

function tradelab(args: string[], env: Record<string, string> = {}) {
  return run(TSX, ['src/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env } });
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('tradelab command line', () => {
  it('migrates an empty SQLite database, then finds nothing left to do', async () => {
    expect((await tradelab(['migrate'])).stdout).toContain('applied: 0001_initial');
    expect(fs.existsSync(path.join(dataDir, 'tradelab.sqlite'))).toBe(true);
    expect((await tradelab(['migrate'])).stdout).toContain('schema already up to date');
  });

  it('stops at start-up with a message naming each bad variable', async () => {
    const failure = await tradelab(['migrate'], { PORT: 'http', AUTH_V1: 'sometimes' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 2 });
    const stderr = (failure as { stderr: string }).stderr;
    expect(stderr).toContain('PORT must be a whole number');
    expect(stderr).toContain('AUTH_V1 must be one of off, beta, ga');
  });

  it('serves until SIGTERM, then stops cleanly', async () => {
    const port = 30000 + Math.floor(Math.random() * 20000);
    const server = spawn(TSX, ['src/cli.ts', 'serve'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    try {
      let body: unknown;
      for (let i = 0; i < 100 && body === undefined; i += 1) {
        body = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.json(), () => undefined);
        if (body === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(body).toEqual({ status: 'ready' });
      const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
