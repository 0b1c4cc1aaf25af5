import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../../src/platform/db/database.js';
import { OFFLINE } from '../../helpers/offline.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A `tradelab` command in its own process, as production runs it (`src/cli.ts` through tsx), its output kept. */
export interface CliProcess {
  readonly child: ChildProcess;
  output(): string;
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
  /** Resolves with the exit code once the process ends by itself. */
  exited(): Promise<number | null>;
}

export function startCli(args: readonly string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATA_DIR: '/tmp/tradelab-fault-data', ...OFFLINE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
    exited: async () => (await exit)[0],
  };
}

/** Polls `check` until it holds; fails with `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

/**
 * Stands in for the time a real takeover waits: the killed worker's lease (60 s) runs out and waiting retries
 * fall due. The timestamps move into the past instead of the test sleeping through them.
 */
export async function letLeasesAndBackoffsRunOut(db: Db): Promise<void> {
  const past = new Date(Date.now() - 1_000).toISOString();
  await db.updateTable('jobs').set({ lease_expires_at: past }).where('state', '=', 'running').execute();
  await db.updateTable('jobs').set({ run_at: past }).where('state', '=', 'queued').where('run_at', '>', past).execute();
}
