import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/database.js';
import { queueMail } from '../src/platform/mail/outbox.js';
import { systemClock } from '../src/platform/clock.js';
import { OFFLINE } from './helpers/offline.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const dirs: string[] = [];

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-cli-'));
  dirs.push(dir);
  return dir;
}

function tradelab(dataDir: string, args: string[], env: Record<string, string> = {}) {
  return run(TSX, ['src/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...OFFLINE, ...env } });
}

/** Node itself is the child (no tsx wrapper process), so a kill reaches the server and nothing is orphaned. */
function start(dataDir: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...OFFLINE, ...env },
    stdio: 'ignore',
  });
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopped(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
}

/** Queues a mail in the SQLite file, as the server would, and returns the file the worker will write. */
async function queueMailIn(dataDir: string): Promise<string> {
  const handle = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'tradelab.sqlite') });
  try {
    const id = await queueMail(handle.db, systemClock, { to: 'ann@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });
    return path.join(dataDir, 'mail', `${id}.eml`);
  } finally {
    await handle.close();
  }
}

afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('tradelab command line', () => {
  it('migrates an empty SQLite database, then finds nothing left to do', async () => {
    const dataDir = freshDataDir();
    expect((await tradelab(dataDir, ['migrate'])).stdout).toContain('applied: 0001_initial');
    expect(fs.existsSync(path.join(dataDir, 'tradelab.sqlite'))).toBe(true);
    expect((await tradelab(dataDir, ['migrate'])).stdout).toContain('schema already up to date');
  });

  it('lets several processes migrate one fresh SQLite file at the same instant: one applies, the others wait', async () => {
    const sqlitePath = path.join(freshDataDir(), 'tradelab.sqlite');
    const goAt = String(Date.now() + 2_500);
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() =>
        run(TSX, ['test/fixtures/migrate-at.ts'], { env: { ...process.env, SQLITE_PATH: sqlitePath, GO_AT: goAt } }),
      ),
    );
    const applied = outputs.map((o) => JSON.parse(o.stdout) as string[]);
    expect(applied.filter((names) => names.length > 0)).toEqual([['0001_initial', '0002_bars_version', '0003_challenge_hash_only', '0004_outbox_link', '0005_paper_money', '0006_admin_breach', '0007_data_rights', '0008_incident_steps_export_tombstones', '0009_option_structures', '0010_bar_sources', '0011_order_fill_source', '0012_option_settlement', '0013_trailing_stop', '0014_options_spec']]);
  });

  it('stops at start-up with a message naming each bad variable', async () => {
    const failure = await tradelab(freshDataDir(), ['migrate'], { PORT: 'http', AUTH_V1: 'sometimes' }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 2 });
    const stderr = (failure as { stderr: string }).stderr;
    expect(stderr).toContain('PORT must be a whole number');
    expect(stderr).toContain('AUTH_V1 must be one of off, beta, ga');
  });

  it('serves, runs jobs in the same process, and stops cleanly on SIGTERM', async () => {
    const dataDir = freshDataDir();
    const port = 30000 + Math.floor(Math.random() * 20000);
    const server = start(dataDir, ['serve'], { PORT: String(port) });
    try {
      expect(await until(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.json()))).toEqual({ status: 'ready' });
      const mailFile = await queueMailIn(dataDir);
      await until(async () => (fs.existsSync(mailFile) ? true : undefined));
      server.kill('SIGTERM');
      expect(await stopped(server)).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('with serve --no-worker, leaves jobs to a separate `tradelab worker` process', async () => {
    const dataDir = freshDataDir();
    const port = 30000 + Math.floor(Math.random() * 20000);
    const server = start(dataDir, ['serve', '--no-worker'], { PORT: String(port) });
    let worker: ChildProcess | undefined;
    try {
      await until(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => (r.ok ? true : undefined)));
      const mailFile = await queueMailIn(dataDir);
      // A worker polls every second; two seconds without the mail shows that nobody is running jobs.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(fs.existsSync(mailFile)).toBe(false);

      worker = start(dataDir, ['worker']);
      await until(async () => (fs.existsSync(mailFile) ? true : undefined));
      worker.kill('SIGTERM');
      expect(await stopped(worker)).toBe(0);
    } finally {
      server.kill('SIGKILL');
      worker?.kill('SIGKILL');
    }
  });
});
