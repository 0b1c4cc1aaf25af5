/**
 * Paper order placement against a real listening server in its own process: market orders per second
 * (POST /api/trade-window/orders on SPX, each filled at the latest stored close), from one signed-in user and from
 * 50 users at once. Each client alternates a buy and a sell of one share, so cash and shares never run out and every
 * order is a real fill (account lock, cash in cents, position, two audit rows). One user's clients share its
 * account lock, so they measure placement serialized per account; 50 users measure it across accounts.
 *
 * SQLite always, PostgreSQL too when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set.
 *
 *   npx tsx bench/orders.bench.ts
 *   BENCH_SECONDS=10 BENCH_ORDER_USERS=50 npx tsx bench/orders.bench.ts
 *
 * Writes bench/results/orders-latest.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/platform/db/database.js';
import { ORIGIN, post, registerAccount, resetSchema, signIn, timedLoops } from './bench-client.js';
import { startBenchServer } from './bench-server.js';

const users = Number(process.env.BENCH_ORDER_USERS ?? 50);
/** Request loops per user in the one-user run (they queue on the user's account lock). */
const oneUserLoops = Number(process.env.BENCH_ORDER_LOOPS ?? 8);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PG_SCHEMA = 'tradelab_bench_orders';
const root = path.resolve(import.meta.dirname, '..');
const builtServer = path.join(root, 'dist/cli.js');
const serverArgs = fs.existsSync(builtServer) ? [builtServer] : ['--import', 'tsx', path.join(root, 'src/cli.ts')];

interface PlacementResult {
  dialect: string;
  users: number;
  loops: number;
  seconds: number;
  orders: number;
  orders_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  failures: number;
}

async function main(): Promise<void> {
  const setups: { dialect: string; env: Record<string, string> }[] = [{ dialect: 'sqlite', env: {} }];
  if (postgresUrl) {
    await resetSchema(postgresUrl, PG_SCHEMA);
    setups.push({ dialect: 'postgres', env: { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: PG_SCHEMA } });
  } else {
    console.warn('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL to benchmark it too.');
  }
  const results: PlacementResult[] = [];
  for (const setup of setups) {
    const server = await startBenchServer(serverArgs, { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1', ...setup.env }, root);
    const database = openDatabase(
      setup.dialect === 'postgres'
        ? { url: postgresUrl!, sqlitePath: '', pgSchema: PG_SCHEMA, pgPoolSize: 2 }
        : { url: null, sqlitePath: path.join(server.dataDir, 'tradelab.sqlite') },
    );
    try {
      const cookies: string[] = [];
      for (let i = 0; i < users; i += 1) {
        const signedIn = await signIn(server.url, await registerAccount(server.url, database, i));
        if (!signedIn.cookie) throw new Error(`sign-in answered ${signedIn.status}`);
        cookies.push(signedIn.cookie);
      }
      // The one user holds shares first, so its concurrent loops can sell as well as buy.
      for (let i = 0; i < oneUserLoops; i += 1) await placeOrder(server.url, cookies[0]!, 'buy');
      results.push(await placeOrders(server.url, setup.dialect, Array.from({ length: oneUserLoops }, () => cookies[0]!), 1));
      results.push(await placeOrders(server.url, setup.dialect, cookies, users));
    } finally {
      await database.close();
      server.process.kill('SIGTERM');
    }
  }
  const report = {
    at: new Date().toISOString(),
    note: 'Measured on a machine shared with other work (2 cores); the clients run on the same machine as the server.',
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    server: serverArgs.length === 1 ? 'dist/cli.js' : 'src/cli.ts via tsx',
    placements: results,
  };
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'orders-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.table(results);
  console.log('written to bench/results/orders-latest.json');
}

let sequence = 0;
function placeOrder(url: string, cookie: string, side: 'buy' | 'sell') {
  sequence += 1;
  return post(
    `${url}/api/trade-window/orders`,
    { symbol: 'SPX', side, qty: 1, order_type: 'market', client_order_id: `bench-${sequence}` },
    { cookie: `service_session=${cookie}`, origin: ORIGIN },
  );
}

/** One loop per cookie, each alternating buy and sell until the time is up; `users` is how many accounts that is. */
async function placeOrders(url: string, dialect: string, loopCookies: string[], users: number): Promise<PlacementResult> {
  const figures = await timedLoops(loopCookies, async (cookie, n) => {
    const placed = await placeOrder(url, cookie, n % 2 === 0 ? 'buy' : 'sell');
    return placed.status === 201 && (placed.json as { status?: string }).status === 'filled';
  });
  return {
    dialect,
    users,
    loops: loopCookies.length,
    seconds: figures.seconds,
    orders: figures.done,
    orders_per_second: figures.per_second,
    latency_p50_ms: figures.latency_p50_ms,
    latency_p99_ms: figures.latency_p99_ms,
    failures: figures.failures,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
