/**
 * Issue 18, the sweep route: the 9,999-cell sma_crossover sweep (fast_period 2..100 × slow_period 300..400, about
 * 51 M bar-steps) over SPX 2000–2020 through `dist/cli.js serve --no-worker` on SQLite in its own process, its cells
 * on the server's piscina pool (one thread per core). Every request has its own initial_capital, so the response
 * cache never answers. Measured:
 *  - one request at a time: the median wall time of SINGLE_RUNS requests (target < 500 ms), and the server's CPU
 *    milliseconds per request (all threads: /proc user + system);
 *  - the route under autocannon load, distinct requests: req/s, p50, p99, and how many were refused 503 `busy`
 *    (the pool's queue holds threads × 4 chunks, one chunk per thread per request).
 * Each figure is printed beside the 1-minute load average; the machine is shared. Writes bench/results/sweep-latest.json.
 *
 *   npm run build && flock /tmp/bench.lock npx tsx bench/sweep.bench.ts
 *   SINGLE_RUNS=9 BENCH_SECONDS=10 SWEEP_CONNECTIONS=4 …   more runs, a longer or wider load
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchServer } from './bench-server.js';

const root = path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, '..'));
const singleRuns = Number(process.env.SINGLE_RUNS ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const loadConnections = Number(process.env.SWEEP_CONNECTIONS ?? 2 * os.availableParallelism());

const SWEEP = {
  symbol: 'SPX',
  strategy: 'sma_crossover',
  start_date: '2000-01-01',
  end_date: '2020-12-31',
  initial_capital: 100000,
  grid: { fast_period: { min: 2, max: 100, step: 1 }, slow_period: { min: 300, max: 400, step: 1 } },
  objective: 'sharpe_ratio',
};

const server = await startBenchServer([path.join(root, 'dist/cli.js')], { SWEEP_RATE_LIMIT: '1000000000', LEGACY_BACKTEST_RATE_LIMIT: '1000000000' }, root);
const loadAverage = () => Number(os.loadavg()[0]!.toFixed(2));
const serverCpuSeconds = () => {
  const fields = fs.readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
let capital = SWEEP.initial_capital;
const distinct = () => JSON.stringify({ ...SWEEP, initial_capital: (capital += 1) });

async function sweepOnce(): Promise<{ ms: number; bytes: number; cells: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/backtest/sweep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: distinct() });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`sweep answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, bytes: text.length, cells: (JSON.parse(text) as { cells: unknown[] }).cells.length };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const report: Record<string, unknown> = { started: new Date().toISOString(), server: root, cores: os.availableParallelism() };
try {
  // The first sweep starts the pool's threads and compiles the worker's code: not counted.
  const warm = await sweepOnce();
  const load = loadAverage();
  const cpuBefore = serverCpuSeconds();
  const times: number[] = [];
  for (let i = 0; i < singleRuns; i += 1) times.push((await sweepOnce()).ms);
  report.single = {
    cells: warm.cells,
    body_bytes: warm.bytes,
    first_ms: Math.round(warm.ms),
    runs: singleRuns,
    median_ms: Math.round(median(times)),
    min_ms: Math.round(Math.min(...times)),
    max_ms: Math.round(Math.max(...times)),
    server_cpu_ms_per_request: Math.round(((serverCpuSeconds() - cpuBefore) * 1000) / singleRuns),
    load_before: load,
    load_after: loadAverage(),
  };
  console.table([report.single]);

  const loadBefore = loadAverage();
  const cpu = serverCpuSeconds();
  const outcome = await autocannon({
    url: `${server.url}/api/backtest/sweep`,
    connections: loadConnections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: distinct(),
    requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: distinct() }) }],
  });
  const answered = outcome.requests.total;
  report.load = {
    connections: loadConnections,
    seconds,
    requests: answered,
    ok: outcome['2xx'],
    busy_503: outcome.non2xx,
    errors: outcome.errors + outcome.timeouts,
    requests_per_second: Number((outcome['2xx'] / outcome.duration).toFixed(2)),
    latency_p50_ms: outcome.latency.p50,
    latency_p99_ms: outcome.latency.p99,
    server_cpu_ms_per_ok_request: outcome['2xx'] > 0 ? Math.round(((serverCpuSeconds() - cpu) * 1000) / outcome['2xx']) : null,
    load_before: loadBefore,
    load_after: loadAverage(),
  };
  console.table([report.load]);
} finally {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}
const dir = path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'sweep-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log('written to bench/results/sweep-latest.json');
