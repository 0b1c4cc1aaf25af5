/**
 * The outside probe of issue 19, items 2 and 3, against the real server in its own process:
 *
 * 1. Stalled requests: opens STALLED connections (default: as many as the fd limit allows, at most 20,000),
 *    each sending a POST's headers and one byte of its body, then nothing. While they are open, times new
 *    requests to /healthz; then records when the server closed each stalled one (REQUEST_TIMEOUT_MS, 30 s
 *    by default).
 * 2. SIGTERM under one stalled connection: time from the signal to the process's exit (SHUTDOWN_TIMEOUT_MS,
 *    10 s by default).
 * 3. A second `serve` on the same DATA_DIR: its exit code, message and how long it took to refuse.
 *
 * `npx tsx bench/stalled-connections.ts` (server under tsx from src/; `PROBE=stalled|sigterm|two-servers` runs one
 * part). Run `ulimit -n` first: both this process and the server need a descriptor per connection. Prints one JSON
 * summary and, for a full run, keeps it in bench/results/stalled-connections-<time>.json.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { OFFLINE } from '../test/helpers/offline.js';

const SERVER = ['--import', 'tsx', 'src/cli.ts'];
const fdLimit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim()) || 1024;
// The server keeps a few dozen descriptors of its own (database, logs, listener).
const STALLED = Number(process.env.STALLED ?? Math.min(20_000, fdLimit - 200));

interface Stalled {
  lastByteAt: number;
  closedAt?: number;
}

function openStalled(port: number): Promise<Stalled> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const entry: Stalled = { lastByteAt: 0 };
    socket.once('connect', () => {
      socket.write('POST /api/backtest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{', () => {
        entry.lastByteAt = Date.now();
        resolve(entry);
      });
    });
    socket.on('data', () => undefined);
    socket.once('close', () => (entry.closedAt = Date.now()));
    socket.once('error', (error) => (entry.lastByteAt === 0 ? reject(error) : undefined));
  });
}

async function timedHealthChecks(url: string, count: number): Promise<{ ok: number; failed: number; ms: number[] }> {
  const result = { ok: 0, failed: 0, ms: [] as number[] };
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) result.ok += 1;
      else result.failed += 1;
    } catch {
      result.failed += 1;
    }
    result.ms.push(Math.round(performance.now() - started));
  }
  return result;
}

function quantiles(values: number[]): { min: number; median: number; p99: number; max: number } | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { min: sorted[0]!, median: at(0.5), p99: at(0.99), max: sorted.at(-1)! };
}

async function stalledRequests(): Promise<unknown> {
  const server = await startBenchServer(SERVER, {});
  const port = Number(new URL(server.url).port);
  try {
    const opened: Stalled[] = [];
    let refused = 0;
    const started = Date.now();
    for (let i = 0; i < STALLED; i += 500) {
      const batch = await Promise.allSettled(Array.from({ length: Math.min(500, STALLED - i) }, () => openStalled(port)));
      for (const outcome of batch) outcome.status === 'fulfilled' ? opened.push(outcome.value) : (refused += 1);
    }
    const openingMs = Date.now() - started;
    const stillOpen = () => opened.filter((s) => s.closedAt === undefined).length;
    const whileStalled = { open: stillOpen(), healthz: await timedHealthChecks(server.url, 20) };
    while (stillOpen() > 0 && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 250));
    const afterCut = await timedHealthChecks(server.url, 5);
    return {
      attempted: STALLED,
      opened: opened.length,
      refused,
      opening_ms: openingMs,
      while_stalled: { ...whileStalled, healthz: { ...whileStalled.healthz, ms: quantiles(whileStalled.healthz.ms) } },
      cut_after_last_byte_ms: quantiles(opened.filter((s) => s.closedAt !== undefined).map((s) => s.closedAt! - s.lastByteAt)),
      never_cut: stillOpen(),
      after_cut_healthz: { ...afterCut, ms: quantiles(afterCut.ms) },
    };
  } finally {
    stop(server);
  }
}

function stop(server: BenchServer): void {
  server.process.kill('SIGKILL');
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

function exited(server: BenchServer): Promise<number | null> {
  return new Promise((resolve) => server.process.once('exit', (code) => resolve(code)));
}

async function sigtermUnderOneStalled(): Promise<unknown> {
  const server = await startBenchServer(SERVER, {});
  try {
    const stalled = await openStalled(Number(new URL(server.url).port));
    // Let the server read the headers first: a connection whose request has not begun is idle, and closed at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalled = Date.now();
    const exit = exited(server);
    server.process.kill('SIGTERM');
    const code = await Promise.race([exit, new Promise((resolve) => setTimeout(() => resolve('still running after 60 s'), 60_000))]);
    return { exit_code: code, exit_after_ms: Date.now() - signalled, stalled_closed_after_ms: stalled.closedAt === undefined ? null : stalled.closedAt - signalled };
  } finally {
    stop(server);
  }
}

async function secondServerOnOneDataDir(): Promise<unknown> {
  const first = await startBenchServer(SERVER, {});
  try {
    const started = Date.now();
    const second = spawn(process.execPath, [...SERVER, 'serve'], {
      env: { ...process.env, DATA_DIR: first.dataDir, PORT: '0', LOG_LEVEL: 'warn', ...OFFLINE },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    second.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => second.once('exit', resolve));
    const firstStillServes = (await fetch(`${first.url}/readyz`)).ok;
    return { exit_code: code, refused_after_ms: Date.now() - started, message: stderr.trim(), first_still_serves: firstStillServes };
  } finally {
    stop(first);
  }
}

const only = process.env.PROBE;
const summary: Record<string, unknown> = { fd_limit: fdLimit };
if (!only || only === 'stalled') summary.stalled_requests = await stalledRequests();
if (!only || only === 'sigterm') summary.sigterm_under_one_stalled = await sigtermUnderOneStalled();
if (!only || only === 'two-servers') summary.second_server_same_data_dir = await secondServerOnOneDataDir();
console.log(JSON.stringify(summary, null, 2));
if (!only) {
  const file = `bench/results/stalled-connections-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  fs.writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
}
