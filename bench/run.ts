/**
 * HTTP benchmarks: starts the built server (`dist/cli.js serve --no-worker`) on loopback in its own
 * process, loads it with autocannon, and writes the figures to bench/results/.
 *
 *   npm run bench                               SQLite, plus PostgreSQL when TEST_DATABASE_URL is set
 *   BENCH_SECONDS=20 BENCH_CONNECTIONS=100 npm run bench
 *   BENCH_ONLY=backtest npm run bench           only the subjects whose name starts with "backtest"
 *   BENCH_ONLY=grammar npx tsx bench/run.ts     only the in-process rule grammar bench (no server started)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchServer } from './bench-server.js';

interface Subject {
  readonly name: string;
  readonly path: string;
  readonly description: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
  /** Makes every request's body different (so no response cache can answer it). */
  readonly vary?: (body: Record<string, unknown>, n: number) => Record<string, unknown>;
}

const SPX_SMA = { symbol: 'SPX', strategy: 'sma_crossover', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 };

const SUBJECTS: readonly Subject[] = [
  { name: 'healthz', path: '/healthz', description: 'process alive, no I/O' },
  { name: 'readyz', path: '/readyz', description: 'one database round trip (select 1)' },
  { name: 'web app page', path: '/devices', description: 'a page path answered with index.html (history fallback, from memory)' },
  { name: 'symbols?q=s', path: '/api/symbols?q=s', description: 'symbol search: a page and its total (two queries)' },
  {
    name: 'backtest SPX sma',
    path: '/api/backtest',
    method: 'POST',
    body: SPX_SMA,
    description: 'POST /api/backtest, sma_crossover over SPX 2000-2020 (5,105 bars, ~200 kB body), one request repeated (response cache hits)',
  },
  {
    name: 'backtest SPX sma uncached',
    path: '/api/backtest',
    method: 'POST',
    body: SPX_SMA,
    vary: (body, n) => ({ ...body, initial_capital: 100000 + n }),
    description: 'as above, each request with its own initial_capital: every one runs the engine and serializes',
  },
];

/** Benchmarks of pure code, run in this process (each writes its own results file), before the HTTP subjects. */
const IN_PROCESS: readonly { readonly name: string; readonly run: () => Promise<void> }[] = [
  { name: 'grammar', run: async () => (await import('./grammar.bench.js')).runGrammarBench() },
];

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/** Run only the subjects whose name starts with this (e.g. `BENCH_ONLY=backtest`). */
const only = process.env.BENCH_ONLY;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

interface Result {
  dialect: string;
  subject: string;
  description: string;
  seconds: number;
  connections: number;
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  errors: number;
  non_2xx: number;
  /** Peak resident memory of the server process while this subject ran (Linux /proc). */
  server_rss_peak_mb: number | null;
  /** Size of one response body (the subject's first request), in bytes. */
  body_bytes: number;
}

async function main(): Promise<void> {
  for (const bench of IN_PROCESS.filter((b) => !only || b.name.startsWith(only))) await bench.run();
  // A partial run that selects no HTTP subject starts no server and writes no HTTP results.
  if (only && !SUBJECTS.some((s) => s.name.startsWith(only))) return;
  const setups: { dialect: string; env: Record<string, string> }[] = [{ dialect: 'sqlite', env: {} }];
  if (postgresUrl) setups.push({ dialect: 'postgres', env: { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: 'tradelab_bench' } });
  else console.warn('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL to benchmark it too.');

  const results: Result[] = [];
  // The machine may be shared: the load average before and after says how much of it the run had.
  const loadBefore = os.loadavg();
  for (const setup of setups) {
    const server = await startServer(setup.env);
    try {
      for (const subject of SUBJECTS.filter((s) => !only || s.name.startsWith(only))) results.push(await load(server.url, setup.dialect, subject, server.process.pid));
    } finally {
      server.process.kill('SIGTERM');
    }
  }

  const report = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      node: process.version,
      load_average_1_5_15_before: loadBefore.map((n) => Math.round(n * 100) / 100),
      load_average_1_5_15_after: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
    results,
  };
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `http-${report.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  // A partial run (BENCH_ONLY) keeps its own file and leaves the last full run as latest.json.
  if (!only) fs.writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.table(results.map(({ description: _d, seconds: _s, connections: _c, ...row }) => row));
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

async function load(url: string, dialect: string, subject: Subject, pid: number | undefined): Promise<Result> {
  const sample = await fetch(url + subject.path, {
    method: subject.method ?? 'GET',
    ...(subject.body === undefined ? {} : { body: JSON.stringify(subject.body), headers: { 'content-type': 'application/json' } }),
  });
  const bodyBytes = (await sample.arrayBuffer()).byteLength;
  let rssPeak: number | null = null;
  const sampler = setInterval(() => {
    const rss = residentMegabytes(pid);
    if (rss !== null) rssPeak = Math.max(rssPeak ?? 0, rss);
  }, 100);
  const outcome = await autocannon({
    url: url + subject.path,
    connections,
    duration: seconds,
    method: subject.method ?? 'GET',
    ...(subject.body === undefined ? {} : { body: JSON.stringify(subject.body), headers: { 'content-type': 'application/json' } }),
    ...(subject.vary ? { requests: [{ setupRequest: varyBody(subject) }] } : {}),
  });
  clearInterval(sampler);
  return {
    dialect,
    subject: subject.name,
    description: subject.description,
    seconds,
    connections,
    requests_per_second: Math.round(outcome.requests.average),
    latency_p50_ms: outcome.latency.p50,
    latency_p99_ms: outcome.latency.p99,
    errors: outcome.errors + outcome.timeouts,
    non_2xx: outcome.non2xx,
    server_rss_peak_mb: rssPeak,
    body_bytes: bodyBytes,
  };
}

function varyBody(subject: Subject) {
  let n = 0;
  return (request: autocannon.Request): autocannon.Request => {
    n += 1;
    return { ...request, body: JSON.stringify(subject.vary!(subject.body as Record<string, unknown>, n)) };
  };
}

function residentMegabytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** The built server, with the legacy backtest limit (120/min per client) lifted: the load comes from one address. */
function startServer(env: Record<string, string>) {
  return startBenchServer(['dist/cli.js'], { LEGACY_BACKTEST_RATE_LIMIT: '1000000000', ...env });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
