/**
 * Issue 17, the backtest routes alone: distinct `POST /api/backtest` (SPX 2000–2020, sma_crossover, each request
 * with its own initial_capital, so the response cache never answers) and distinct `POST /api/backtest/run` (one
 * signed-in account, a strategy with the SMA 10/30 crossover rules, each request with its own starting_capital),
 * autocannon against `dist/cli.js serve --no-worker` on SQLite in its own process. Prints each figure beside the load
 * average at its start and end, and the server's CPU milliseconds per request (steadier than req/s when other work
 * shares the machine).
 *
 *   npm run build && npx tsx bench/backtest-routes.bench.ts
 *   BENCH_SERVER_ROOT=/tmp/base npx tsx bench/backtest-routes.bench.ts   another build (its dist/cli.js), e.g. the base
 *   PROFILE=1 npx tsx bench/backtest-routes.bench.ts                      the server under --cpu-prof (PROFILE_DIR)
 *
 * Summarise a profile with `LAST_SECONDS=… node bench/profile-summary.mjs <file>`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/platform/db/database.js';
import { loadEndpoint, ORIGIN, post, registerAccount, signIn, type LoadResult } from './bench-client.js';
import { startBenchServer } from './bench-server.js';

const root = path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, '..'));
const profileDir = process.env.PROFILE_DIR ?? '/tmp/tradelab-prof';
const profile = process.env.PROFILE === '1';
/** `legacy`, `library` or both (default). */
const only = process.env.BENCH_ONLY;

const SPX_SMA = { symbol: 'SPX', strategy: 'sma_crossover', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 };

if (profile) fs.mkdirSync(profileDir, { recursive: true });
const serverArgs = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), path.join(root, 'dist/cli.js')];
const server = await startBenchServer(serverArgs, { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1', LEGACY_BACKTEST_RATE_LIMIT: '1000000000' }, root);
const database = openDatabase({ url: null, sqlitePath: path.join(server.dataDir, 'tradelab.sqlite') });
const rows: Record<string, unknown>[] = [];
const loadAverage = () => os.loadavg()[0]!.toFixed(2);
/** CPU seconds the server process has used (user + system, /proc), to divide by the requests it answered. */
const serverCpuSeconds = () => {
  const fields = fs.readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/** Load figures plus the server's CPU milliseconds per request: steadier than req/s on a shared machine. */
async function measured(run: () => Promise<LoadResult>): Promise<Record<string, unknown>> {
  const load = loadAverage();
  const cpuBefore = serverCpuSeconds();
  const figures = await run();
  const requests = figures.requests_per_second * figures.seconds;
  return { ...figures, server_cpu_ms_per_request: Number((((serverCpuSeconds() - cpuBefore) * 1000) / requests).toFixed(2)), load_before: load, load_after: loadAverage() };
}
try {
  if (only !== 'library') {
    rows.push(await measured(() => loadEndpoint(server.url, 'sqlite', 'POST /api/backtest distinct', '/api/backtest', {}, SPX_SMA, (n) => ({ ...SPX_SMA, initial_capital: 100000 + n }))));
  }
  if (only !== 'legacy') {
    const cookie = (await signIn(server.url, await registerAccount(server.url, database, 0))).cookie!;
    const signedIn = { cookie: `service_session=${cookie}`, origin: ORIGIN };
    const created = await post(
      `${server.url}/api/strategies`,
      {
        name: 'Bench SMA 10/30',
        strategy_type: 'equity_long',
        entry_symbol_allowlist: 'SPX',
        entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
        exit_rule: 'crosses_below(sma(close, 10), sma(close, 30))',
      },
      signedIn,
    );
    const run = { strategy_id: (created.json as { id: number }).id, symbols: ['SPX'], start_date: '2000-01-01', end_date: '2020-12-31', starting_capital: 100000 };
    rows.push(await measured(() => loadEndpoint(server.url, 'sqlite', 'POST /api/backtest/run distinct', '/api/backtest/run', signedIn, run, (n) => ({ ...run, starting_capital: 100000 + n }))));
  }
} finally {
  await database.close();
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}
console.log(`server: ${root}`);
console.table(rows.map(({ dialect: _d, connections: _c, ...row }) => row));
if (profile) console.log(`profile in ${profileDir}`);
