/**
 * Passkey benchmarks against a real listening server in its own process (`dist/cli.js serve --no-worker`
 * when built, else `src/cli.ts` through tsx):
 *
 *  1. sign-in ceremonies per second: POST login/options, the software authenticator signs, POST
 *     login/verify (a session is issued each time); sequentially and from BENCH_CONCURRENCY clients,
 *     each with its own account (a credential's counter must only grow, so one passkey is one client);
 *  2. authenticated request overhead: GET /api/auth/session with a valid cookie (one session lookup)
 *     against GET /healthz (no I/O) under autocannon;
 *  3. a library backtest under autocannon: POST /api/backtest/run of a strategy with SMA 10/30 crossover rules over
 *     SPX 2000–2020, repeated (session, strategy read, bars version, then the response cache) and with every request
 *     distinct (rule compile + evaluate, replay and serialization each time).
 *
 * SQLite always, PostgreSQL too when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set. Each ceremony
 * comes through X-Forwarded-For from its own /24 (TRUST_PROXY=127.0.0.1), so the per-network limit of
 * 20 ceremonies a minute counts as in production without refusing the benchmark.
 *
 *   npx tsx bench/auth.bench.ts
 *   BENCH_SECONDS=10 BENCH_CONCURRENCY=8 BENCH_CONNECTIONS=50 npx tsx bench/auth.bench.ts
 *   BENCH_AUTH_ONLY=1 BENCH_DIALECT=postgres BENCH_SERVER=/path/to/other/dist/cli.js npx tsx bench/auth.bench.ts
 *
 * Writes bench/results/auth-latest.json (and a timestamped copy). Run directly, or import `runAuthBench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../src/platform/db/database.js';
import type { SoftwareAuthenticator } from '../test/helpers/software-authenticator.js';
import { loadEndpoint, ORIGIN, post, registerAccount, resetSchema, signIn, timedLoops, type LoadResult } from './bench-client.js';
import { startBenchServer } from './bench-server.js';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PG_SCHEMA = 'tradelab_bench_auth';
const root = path.resolve(import.meta.dirname, '..');
// BENCH_SERVER: another build of the server (e.g. a copy of `dist/` from before a change) for before/after runs.
const builtServer = process.env.BENCH_SERVER ? path.resolve(process.env.BENCH_SERVER) : path.join(root, 'dist/cli.js');
// BENCH_AUTH_ONLY=1: the sign-in and session subjects only (no backtests); BENCH_DIALECT=sqlite|postgres: one dialect.
const authOnly = process.env.BENCH_AUTH_ONLY === '1';
const onlyDialect = process.env.BENCH_DIALECT;
const serverArgs = fs.existsSync(builtServer) ? [builtServer] : ['--import', 'tsx', path.join(root, 'src/cli.ts')];

interface CeremonyResult {
  dialect: string;
  clients: number;
  seconds: number;
  ceremonies: number;
  ceremonies_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  failures: number;
}

/** Runs both benchmarks on every configured dialect and writes the report; `bench/run.ts` may call it too. */
export async function runAuthBench(): Promise<void> {
  const loadAtStart = os.loadavg().map((n) => Math.round(n * 100) / 100);
  const setups: { dialect: string; env: Record<string, string> }[] = onlyDialect === 'postgres' ? [] : [{ dialect: 'sqlite', env: {} }];
  if (postgresUrl && onlyDialect !== 'sqlite') {
    await resetSchema(postgresUrl, PG_SCHEMA);
    setups.push({ dialect: 'postgres', env: { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: PG_SCHEMA } });
  } else {
    console.warn('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL to benchmark it too.');
  }

  const ceremonies: CeremonyResult[] = [];
  const load: LoadResult[] = [];
  for (const setup of setups) {
    const server = await startServer(setup.env);
    const database = openDatabase(
      setup.dialect === 'postgres'
        ? { url: postgresUrl!, sqlitePath: '', pgSchema: PG_SCHEMA, pgPoolSize: 2 }
        : { url: null, sqlitePath: path.join(server.dataDir, 'tradelab.sqlite') },
    );
    try {
      const accounts: SoftwareAuthenticator[] = [];
      for (let i = 0; i < concurrency; i += 1) accounts.push(await registerAccount(server.url, database, i));
      await signIn(server.url, accounts[0]!); // warm-up
      const pid = server.process.pid!;
      ceremonies.push(await withServerCpu(pid, () => runCeremonies(server.url, setup.dialect, accounts.slice(0, 1)), (r) => r.ceremonies));
      ceremonies.push(await withServerCpu(pid, () => runCeremonies(server.url, setup.dialect, accounts), (r) => r.ceremonies));
      const cookie = (await signIn(server.url, accounts[0]!)).cookie!;
      const requests = (r: LoadResult) => r.requests_per_second * r.seconds;
      load.push(await withServerCpu(pid, () => loadEndpoint(server.url, setup.dialect, 'GET /healthz (open)', '/healthz', {}), requests));
      load.push(
        await withServerCpu(pid, () => loadEndpoint(server.url, setup.dialect, 'GET /api/auth/session (session checked)', '/api/auth/session', { cookie: `service_session=${cookie}` }), requests),
      );
      if (authOnly) continue;
      const strategyId = await createSmaStrategy(server.url, cookie);
      const run = { strategy_id: strategyId, symbols: ['SPX'], start_date: '2000-01-01', end_date: '2020-12-31', starting_capital: 100000 };
      const signedIn = { cookie: `service_session=${cookie}`, origin: ORIGIN };
      load.push(await loadEndpoint(server.url, setup.dialect, 'POST /api/backtest/run (SMA 10/30 rules, SPX 2000–2020), repeated', '/api/backtest/run', signedIn, run));
      load.push(
        await loadEndpoint(server.url, setup.dialect, 'POST /api/backtest/run, every request distinct (no cache hit)', '/api/backtest/run', signedIn, run, (n) => ({
          ...run,
          starting_capital: 100000 + n,
        })),
      );
    } finally {
      await database.close();
      server.process.kill('SIGTERM');
    }
  }

  const report = {
    at: new Date().toISOString(),
    note: 'Measured on a machine shared with other work (2 cores); the load generator runs on the same machine as the server.',
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    server: serverArgs.length === 1 ? path.relative(root, builtServer) : 'src/cli.ts via tsx',
    load_average_1_5_15: { at_start: loadAtStart, at_end: os.loadavg().map((n) => Math.round(n * 100) / 100) },
    rate_limit_store: process.env.REDIS_URL ? 'redis' : 'database',
    ceremonies,
    authenticated_overhead: load,
  };
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const body = `${JSON.stringify(report, null, 2)}\n`;
  fs.writeFileSync(path.join(dir, `auth-${report.at.replace(/[:.]/g, '-')}.json`), body);
  fs.writeFileSync(path.join(dir, 'auth-latest.json'), body);
  console.table(ceremonies);
  console.table(load);
  console.log('written to bench/results/auth-latest.json');
}

/**
 * The server process's CPU time per operation over a phase (Linux /proc; null elsewhere): unlike the rates, it
 * hardly moves with what else runs on the machine, so before/after builds compare on it (issue 17).
 */
async function withServerCpu<T extends object>(pid: number, phase: () => Promise<T>, operations: (result: T) => number): Promise<T & { server_cpu_us_per_op: number | null }> {
  const before = processCpuMs(pid);
  const result = await phase();
  const after = processCpuMs(pid);
  const count = operations(result);
  return { ...result, server_cpu_us_per_op: before === null || after === null || count === 0 ? null : Math.round(((after - before) * 1000) / count) };
}

function processCpuMs(pid: number): number | null {
  try {
    // Fields 14 and 15 of /proc/PID/stat (after the parenthesised command name): user and system time in ticks.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
const CLOCK_TICKS_PER_SECOND = 100;

async function runCeremonies(url: string, dialect: string, clients: SoftwareAuthenticator[]): Promise<CeremonyResult> {
  const figures = await timedLoops(clients, async (authenticator) => {
    const outcome = await signIn(url, authenticator);
    return outcome.status === 200 && outcome.cookie !== undefined;
  });
  return {
    dialect,
    clients: clients.length,
    seconds: figures.seconds,
    ceremonies: figures.done,
    ceremonies_per_second: figures.per_second,
    latency_p50_ms: figures.latency_p50_ms,
    latency_p99_ms: figures.latency_p99_ms,
    failures: figures.failures,
  };
}

/** A library strategy with the DESIGN's crossover rules, for the library backtest subject; its id. */
async function createSmaStrategy(url: string, cookie: string): Promise<number> {
  const created = await post(
    `${url}/api/strategies`,
    {
      name: 'Bench SMA 10/30',
      strategy_type: 'equity_long',
      entry_symbol_allowlist: 'SPX',
      entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
      exit_rule: 'crosses_below(sma(close, 10), sma(close, 30))',
    },
    { cookie: `service_session=${cookie}`, origin: ORIGIN },
  );
  if (created.status !== 201) throw new Error(`creating the bench strategy answered ${created.status}: ${JSON.stringify(created.json)}`);
  return (created.json as { id: number }).id;
}

function startServer(env: Record<string, string>) {
  // The library backtest is limited per user with the legacy backtest's limit: lifted, as bench/run.ts does.
  return startBenchServer(serverArgs, { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1', LEGACY_BACKTEST_RATE_LIMIT: '1000000000', ...env }, root);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAuthBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
