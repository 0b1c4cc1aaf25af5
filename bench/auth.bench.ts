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
 *
 * Writes bench/results/auth-latest.json (and a timestamped copy). Run directly, or import `runAuthBench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/platform/db/database.js';
import { SoftwareAuthenticator } from '../test/helpers/software-authenticator.js';
import { mailedLinkTokens } from '../test/helpers/mailbox.js';
import { startBenchServer } from './bench-server.js';

const ORIGIN = 'http://localhost:3000';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PG_SCHEMA = 'tradelab_bench_auth';
const root = path.resolve(import.meta.dirname, '..');
const builtServer = path.join(root, 'dist/cli.js');
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

interface LoadResult {
  dialect: string;
  subject: string;
  connections: number;
  seconds: number;
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  non_2xx: number;
  errors: number;
}

let networkCounter = 0;
/** A client address from its own /24 for each call. */
function nextClientAddress(): string {
  networkCounter += 1;
  return `10.${(networkCounter >> 8) & 255}.${networkCounter & 255}.9`;
}

async function post(url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; cookie?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      'x-forwarded-for': nextClientAddress(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const cookie = /service_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  return { status: response.status, json: text ? JSON.parse(text) : null, ...(cookie ? { cookie } : {}) };
}

/** Runs both benchmarks on every configured dialect and writes the report; `bench/run.ts` may call it too. */
export async function runAuthBench(): Promise<void> {
  const setups: { dialect: string; env: Record<string, string> }[] = [{ dialect: 'sqlite', env: {} }];
  if (postgresUrl) {
    await resetSchema(postgresUrl);
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
      ceremonies.push(await runCeremonies(server.url, setup.dialect, accounts.slice(0, 1)));
      ceremonies.push(await runCeremonies(server.url, setup.dialect, accounts));
      const cookie = (await signIn(server.url, accounts[0]!)).cookie!;
      load.push(await loadEndpoint(server.url, setup.dialect, 'GET /healthz (open)', '/healthz', {}));
      load.push(await loadEndpoint(server.url, setup.dialect, 'GET /api/auth/session (session checked)', '/api/auth/session', { cookie: `service_session=${cookie}` }));
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
    server: serverArgs.length === 1 ? 'dist/cli.js' : 'src/cli.ts via tsx',
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

/** Register → the mailed link (delivered through the real mail job, which mints it) → verified: an account ready to sign in. */
async function registerAccount(url: string, database: DatabaseHandle, index: number): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm: 'ES256' });
  const email = `bench-${index}-${Date.now().toString(36)}@example.com`;
  const options = await post(`${url}/api/auth/register/options`, { email, display_name: `Bench ${index}` });
  if (options.status !== 200) throw new Error(`register/options: ${options.status} ${JSON.stringify(options.json)}`);
  const verified = await post(`${url}/api/auth/register/verify`, authenticator.createCredential(options.json as never));
  if (verified.status !== 201) throw new Error(`register/verify: ${verified.status} ${JSON.stringify(verified.json)}`);
  const token = (await mailedLinkTokens(database.db, email, 'verify-email')).at(-1);
  const confirmed = await fetch(`${url}/api/auth/email/verify?token=${token}`);
  if (confirmed.status !== 200) throw new Error(`email/verify: ${confirmed.status}`);
  return authenticator;
}

async function signIn(url: string, authenticator: SoftwareAuthenticator): Promise<{ status: number; cookie?: string }> {
  const options = await post(`${url}/api/auth/login/options`);
  if (options.status !== 200) return { status: options.status };
  return post(`${url}/api/auth/login/verify`, authenticator.getAssertion(options.json as never));
}

async function runCeremonies(url: string, dialect: string, clients: SoftwareAuthenticator[]): Promise<CeremonyResult> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    clients.map(async (authenticator) => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const outcome = await signIn(url, authenticator);
        if (outcome.status === 200 && outcome.cookie) latencies.push(performance.now() - begin);
        else failures += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return {
    dialect,
    clients: clients.length,
    seconds: Math.round(elapsed * 10) / 10,
    ceremonies: latencies.length,
    ceremonies_per_second: Math.round((latencies.length / elapsed) * 10) / 10,
    latency_p50_ms: at(0.5),
    latency_p99_ms: at(0.99),
    failures,
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

async function loadEndpoint(
  url: string,
  dialect: string,
  subject: string,
  pathname: string,
  headers: Record<string, string>,
  body?: Record<string, unknown>,
  vary?: (n: number) => Record<string, unknown>,
): Promise<LoadResult> {
  let n = 0;
  const outcome = await autocannon({
    url: url + pathname,
    connections,
    duration: seconds,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { method: 'POST' as const, body: JSON.stringify(body) }),
    // A body of its own for each request (autocannon calls this before each one).
    ...(vary ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify(vary((n += 1))) }) }] } : {}),
  });
  return {
    dialect,
    subject,
    connections,
    seconds,
    requests_per_second: Math.round(outcome.requests.average),
    latency_p50_ms: outcome.latency.p50,
    latency_p99_ms: outcome.latency.p99,
    non_2xx: outcome.non2xx,
    errors: outcome.errors + outcome.timeouts,
  };
}

async function resetSchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${PG_SCHEMA} cascade`);
  await client.query(`create schema ${PG_SCHEMA}`);
  await client.end();
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
