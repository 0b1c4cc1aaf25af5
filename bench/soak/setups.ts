import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { resetSchema } from '../bench-client.js';
import { ORIGIN } from './journey.js';
import { startLoadBalancer } from './load-balancer.js';
import { startService, stopService, type ServiceProcess } from './processes.js';

export type SetupName = 'postgres' | 'sqlite';

/** One deployment under test: where the users go, its processes, and a database handle for the checks. */
export interface RunningSetup {
  readonly name: SetupName;
  readonly title: string;
  readonly baseUrl: string;
  readonly services: readonly ServiceProcess[];
  readonly database: DatabaseHandle;
  /** Requests the balancer sent to each instance (PostgreSQL), to show both took load. */
  readonly forwarded: () => readonly number[] | null;
  stop(): Promise<void>;
}

/** Setup A: two `serve --no-worker` instances and one `worker` on one PostgreSQL schema of its own, behind the balancer. */
export async function startPostgresSetup(databaseUrl: string, smtpUrl: string): Promise<RunningSetup> {
  const schema = `tradelab_soak_${process.pid}`;
  await resetSchema(databaseUrl, schema);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-soak-'));
  const env = { ...commonEnv(smtpUrl, dataDir), DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema };
  const services: ServiceProcess[] = [];
  const stopAll = async () => {
    for (const service of services.reverse()) await stopService(service);
    await dropSchema(databaseUrl, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // One after the other: the first migrates the schema and loads the demo bars, the others find them done.
    services.push(await startService('serve --no-worker (A)', ['serve', '--no-worker'], env));
    services.push(await startService('serve --no-worker (B)', ['serve', '--no-worker'], env));
    services.push(await startService('worker', ['worker'], env));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const balancer = await startLoadBalancer(services.slice(0, 2).map((s) => s.url!));
  const database = openDatabase({ url: databaseUrl, sqlitePath: '', pgSchema: schema, pgPoolSize: 2 });
  return {
    name: 'postgres',
    title: 'A: PostgreSQL, 2 × `serve --no-worker` + 1 `worker` behind a round-robin balancer',
    baseUrl: balancer.url,
    services,
    database,
    forwarded: () => balancer.forwarded,
    async stop() {
      await balancer.close();
      await database.close();
      await stopAll();
    },
  };
}

/** Setup B, the default install: one `serve` (its worker included) on SQLite in a fresh data folder. */
export async function startSqliteSetup(smtpUrl: string): Promise<RunningSetup> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-soak-'));
  let service: ServiceProcess;
  try {
    service = await startService('serve (with its worker)', ['serve'], commonEnv(smtpUrl, dataDir));
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const database = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'tradelab.sqlite') });
  return {
    name: 'sqlite',
    title: 'B: SQLite, one `serve` with its worker (the default install)',
    baseUrl: service.url!,
    services: [service],
    database,
    forwarded: () => null,
    async stop() {
      await database.close();
      await stopService(service);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The configuration every process of the soak shares; the client addresses come through X-Forwarded-For. */
function commonEnv(smtpUrl: string, dataDir: string): Record<string, string> {
  return { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1', SMTP_URL: smtpUrl, DATA_DIR: dataDir };
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}
