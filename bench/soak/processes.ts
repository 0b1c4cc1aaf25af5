import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { OFFLINE } from '../../test/helpers/offline.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtCli = path.join(root, 'dist/cli.js');
/** The node command line of the CLI: the build (`npm run bench:soak` compiles it first), else the sources via tsx. */
export const cliArgs = fs.existsSync(builtCli) ? [builtCli] : ['--import', 'tsx', path.join(root, 'src/cli.ts')];
export const cliName = cliArgs.length === 1 ? 'dist/cli.js' : 'src/cli.ts via tsx';

/** Variables of ours the soak sets itself: none leaks in from the shell that started it (REDIS_URL, say). */
const OWN_VARIABLES = /^(PORT|HOST|DATA_DIR|DATABASE_URL|DATABASE_SCHEMA|SMTP_URL|REDIS_URL|PUBLIC_ORIGIN|TRUST_PROXY|LOG_LEVEL|AUTH_V1|FLAG_.*|ALPACA_.*|LEGACY_BACKTEST_RATE_LIMIT)$/;

export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Set for `serve`: where it listens. */
  readonly url: string | null;
}

/**
 * Runs one `tradelab` role (`serve`, `serve --no-worker`, `worker`) in its own process with `env`, and resolves once
 * it is up: `/readyz` answering for `serve`, for `worker` a second alive after start.
 */
export async function startService(name: string, command: readonly string[], env: Record<string, string>): Promise<ServiceProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !OWN_VARIABLES.test(key)));
  const serving = command[0] === 'serve';
  const port = serving ? await freePort() : 0;
  const child = spawn(process.execPath, [...cliArgs, ...command], {
    cwd: root,
    env: { ...inherited, LOG_LEVEL: 'warn', ...OFFLINE, ...env, ...(serving ? { PORT: String(port), HOST: '127.0.0.1' } : {}) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = serving ? `http://127.0.0.1:${port}` : null;
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    if (url === null ? i >= 10 : await answers(`${url}/readyz`)) return { name, child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not come up within 60 s`);
}

/** SIGTERM, then SIGKILL if it has not exited within 15 s. */
export async function stopService(service: ServiceProcess): Promise<void> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RssFigures {
  process: string;
  pid: number;
  start_mb: number;
  max_mb: number;
  end_mb: number;
}

/** Samples VmRSS of each process from /proc/PID/status every `everyMs` until `stop()`, which answers the figures. */
export function sampleRss(processes: readonly { name: string; pid: number }[], everyMs = 1000): { stop(): RssFigures[] } {
  const samples = processes.map(() => [] as number[]);
  const take = () => processes.forEach(({ pid }, i) => {
    const kb = rssKb(pid);
    if (kb !== null) samples[i]!.push(kb);
  });
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const mb = (kb: number | undefined) => Math.round(((kb ?? 0) / 1024) * 10) / 10;
      return processes.map(({ name, pid }, i) => ({
        process: name,
        pid,
        start_mb: mb(samples[i]![0]),
        max_mb: mb(Math.max(0, ...samples[i]!)),
        end_mb: mb(samples[i]!.at(-1)),
      }));
    },
  };
}

function rssKb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
