/**
 * Issue 17 profiling driver: starts `dist/cli.js serve --no-worker` with `--cpu-prof` (the env auth.bench.ts uses),
 * registers BENCH_CONCURRENCY accounts, runs PROFILE_PHASE load ('ceremonies' = sign-in loop from the clients,
 * 'session' = autocannon on GET /api/auth/session, 'both'; 'healthz' = autocannon on GET /healthz, the baseline
 * the session-checked GET is compared with), then SIGTERMs it so Node writes the .cpuprofile into
 * PROFILE_DIR (default /tmp/tradelab-prof). Summarise with `node bench/profile-summary.mjs <file>`.
 *
 *   npm run build && PROFILE_PHASE=session npx tsx bench/profile-auth.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/platform/db/database.js';
import type { SoftwareAuthenticator } from '../test/helpers/software-authenticator.js';
import { loadEndpoint, ORIGIN, registerAccount, resetSchema, seconds, signIn } from './bench-client.js';
import { startBenchServer } from './bench-server.js';

const root = path.resolve(import.meta.dirname, '..');
const phase = process.env.PROFILE_PHASE ?? 'both';
const profileDir = process.env.PROFILE_DIR ?? '/tmp/tradelab-prof';
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PG_SCHEMA = 'tradelab_profile_auth';

fs.mkdirSync(profileDir, { recursive: true });
const env: Record<string, string> = { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1' };
if (postgresUrl) {
  await resetSchema(postgresUrl, PG_SCHEMA);
  Object.assign(env, { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: PG_SCHEMA });
}
const server = await startBenchServer([`--cpu-prof`, `--cpu-prof-dir=${profileDir}`, path.join(root, 'dist/cli.js')], env, root);
const database = openDatabase(
  postgresUrl ? { url: postgresUrl, sqlitePath: '', pgSchema: PG_SCHEMA, pgPoolSize: 2 } : { url: null, sqlitePath: path.join(server.dataDir, 'tradelab.sqlite') },
);
try {
  const accounts: SoftwareAuthenticator[] = [];
  for (let i = 0; i < concurrency; i += 1) accounts.push(await registerAccount(server.url, database, i));
  if (phase === 'ceremonies' || phase === 'both') {
    let done = 0;
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      accounts.map(async (a) => {
        while (performance.now() < deadline) if ((await signIn(server.url, a)).status === 200) done += 1;
      }),
    );
    console.log(`ceremonies: ${Math.round(done / seconds)}/s`);
  }
  if (phase === 'healthz') console.table([await loadEndpoint(server.url, 'x', 'healthz', '/healthz', {})]);
  if (phase === 'session' || phase === 'both') {
    const cookie = (await signIn(server.url, accounts[0]!)).cookie!;
    console.table([await loadEndpoint(server.url, 'x', 'session', '/api/auth/session', { cookie: `service_session=${cookie}` })]);
  }
} finally {
  await database.close();
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}
console.log(`profile in ${profileDir}`);
