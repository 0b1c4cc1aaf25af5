import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OFFLINE } from './offline.js';

/** `tradelab` commands as child processes: a fresh data directory, a start, waiting for an answer or an exit. */

const dirs: string[] = [];
const children: ChildProcess[] = [];

/** A new empty DATA_DIR; `cleanUpProcesses` deletes every one made. */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-cli-'));
  dirs.push(dir);
  return dir;
}

/** For `afterAll`: kills every child still running (a test that timed out never reached its `finally`), removes every data dir. */
export function cleanUpProcesses(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function randomPort(): number {
  return 30000 + Math.floor(Math.random() * 20000);
}

/**
 * Starts `tradelab …args` on `dataDir`. Node itself is the child (no tsx wrapper process), so a kill reaches the
 * server and nothing is orphaned. Its stderr is kept (`stderr()`); stdout is dropped.
 */
export function startTradelab(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcess & { stderr(): string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...OFFLINE, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return Object.assign(child, { stderr: () => stderr });
}

/** Polls `probe` every 100 ms until it answers something other than undefined (a throw counts as undefined). */
export async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The child's exit code once it has exited (null when a signal ended it). */
export function stopped(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
}

/** Resolves when `/readyz` answers ready on `port` (a start under tsx on a busy machine can take many seconds). */
export function ready(port: number): Promise<true> {
  return until(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => (r.ok ? true : undefined)), 45_000);
}
