/**
 * The outside probe's amplification requests (issue 19, item 1), sent to a real `serve`: each of the three
 * bodies alone, then sixteen of them at once while a `/healthz` is timed. Prints reply bytes, time, the
 * server's peak RSS and how long `/healthz` waited.
 *
 *   npx tsx bench/amplification-probe.ts            (the server from src/ via tsx)
 *   SERVER_CWD=/path/to/other/checkout npx tsx …    (another checkout, e.g. the code before the fix)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchServer } from './bench-server.js';

const ORIGIN = 'http://localhost:3000';
const cwd = process.env.SERVER_CWD ?? process.cwd();

const probes: { name: string; path: string; body: string }[] = [
  {
    name: '200,000-item strategies',
    path: '/api/compare-strategies',
    body: JSON.stringify({ symbol: 'SPX', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 10000, strategies: Array(200_000).fill(1) }),
  },
  {
    name: '200,000-item strategy_params',
    path: '/api/backtest',
    body: JSON.stringify({ symbol: 'SPX', strategy: 'sma_crossover', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 10000, strategy_params: Array(200_000).fill(1) }),
  },
  {
    name: '95,000 unknown keys',
    path: '/api/backtest',
    body: JSON.stringify(Object.fromEntries(Array.from({ length: 95_000 }, (_, i) => [`k${i}`, 1]))),
  },
];

async function send(url: string, path: string, body: string): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, bytes, ms: performance.now() - started };
}

function peakRssMb(pid: number): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return hwm ? Math.round(Number(hwm[1]) / 1024) : NaN;
}

const server = await startBenchServer(['--import', 'tsx', 'src/cli.ts'], {}, cwd);
try {
  console.log(`| request | body KB | status | reply bytes | ms |`);
  console.log(`|---|---|---|---|---|`);
  for (const probe of probes) {
    const result = await send(server.url, probe.path, probe.body);
    console.log(`| ${probe.name} | ${Math.round(probe.body.length / 1024)} | ${result.status} | ${result.bytes.toLocaleString('en')} | ${result.ms.toFixed(0)} |`);
  }
  const burst = Array.from({ length: 16 }, (_, i) => probes[i % probes.length]!);
  const started = performance.now();
  const replies = Promise.all(burst.map((probe) => send(server.url, probe.path, probe.body)));
  const healthStarted = performance.now();
  await fetch(`${server.url}/healthz`);
  const healthMs = performance.now() - healthStarted;
  const results = await replies;
  const statuses = [...new Set(results.map((r) => r.status))].join(', ');
  console.log(
    `\n16 at once: all answered in ${(performance.now() - started).toFixed(0)} ms (statuses ${statuses}, ` +
      `largest reply ${Math.max(...results.map((r) => r.bytes)).toLocaleString('en')} bytes); /healthz meanwhile ${healthMs.toFixed(0)} ms; ` +
      `server peak RSS ${peakRssMb(server.process.pid!)} MB`,
  );
} finally {
  server.process.kill('SIGTERM');
}
