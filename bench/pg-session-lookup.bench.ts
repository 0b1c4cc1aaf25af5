/**
 * Issue 17: the session lookup (`findSessionWithUser`) on PostgreSQL, sent unnamed (Kysely's pg driver as it is:
 * the server parses and plans it every time) and as a named prepared statement (`namingStatements`), alternately
 * in one process, C lookups in flight over a pool of P connections. Needs the schema `bench/auth.bench.ts` leaves
 * (tradelab_bench_auth, with sessions in it).
 *
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/pg-session-lookup.bench.ts     (ROUNDS=6 N=20000 C=16 P=10)
 */
import os from 'node:os';
import { Kysely } from 'kysely';
import pg from 'pg';
import { findSessionWithUser } from '../src/auth/sessions.repo.js';
import type { Database } from '../src/platform/db/schema.js';
import { namingStatements } from '../src/platform/db/pg-named-statements.js';
import { CurrentSchemaPostgresDialect } from '../src/platform/db/postgres-introspector.js';

const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!url) throw new Error('set TEST_DATABASE_URL');
const SCHEMA = 'tradelab_bench_auth';
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const N = Number(process.env.N ?? 20_000);
const C = Number(process.env.C ?? 16);
const P = Number(process.env.P ?? 10);

function open(named: boolean): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: P, options: `-c search_path=${SCHEMA}` });
  if (named) namingStatements(pool);
  return new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
}

async function lookups(db: Kysely<Database>, id: string): Promise<{ per_second: number; cpu_us_per_lookup: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) {
        next += 1;
        if (!(await findSessionWithUser(db, id))) throw new Error('session not found');
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { per_second: Math.round((N / (performance.now() - started)) * 1000), cpu_us_per_lookup: Math.round((used.user + used.system) / N) };
}

const unnamed = open(false);
const named = open(true);
const { id } = await unnamed.selectFrom('sessions').select('id').executeTakeFirstOrThrow();
await lookups(unnamed, id);
await lookups(named, id);
const rows = [];
for (let round = 0; round < ROUNDS; round += 1) {
  rows.push({ statement: 'unnamed (before)', load_1m: os.loadavg()[0]!.toFixed(2), ...(await lookups(unnamed, id)) });
  rows.push({ statement: 'named (after)', load_1m: os.loadavg()[0]!.toFixed(2), ...(await lookups(named, id)) });
}
console.log(`session lookups on PostgreSQL, ${N} per row, ${C} in flight, pool of ${P}`);
console.table(rows);
await unnamed.destroy();
await named.destroy();
