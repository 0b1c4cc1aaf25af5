import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import type { App } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient, SESSION_COOKIE } from '../helpers/http-client.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './support/throwaway-postgres.js';

/** No request may take longer than this, outage or not: it must fail fast rather than hang. */
const REQUEST_BUDGET_MS = 5_000;
const WRITERS = 4;

interface Outcome {
  readonly phase: 'before' | 'down' | 'after';
  readonly status: number;
  readonly error: string | undefined;
  readonly retryAfter: string | null;
  readonly ms: number;
  readonly strategyId: number | undefined;
}

describe('PostgreSQL restarted while requests run', () => {
  let postgres: ThrowawayPostgres;
  let database: DatabaseHandle;
  let app: App;
  let base: string;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    database = openDatabase({ url: postgres.url, sqlitePath: '', pgPoolSize: 10 });
    app = await buildTestApp(database);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    postgres?.destroy();
  });

  it('answers 503 database_unavailable with Retry-After at once while it is down, recovers by itself, loses no acknowledged write', async () => {
    const ann = await signedInAccount(new HttpClient(app), database.db);
    let phase: Outcome['phase'] = 'before';
    let running = true;
    const outcomes: Outcome[] = [];
    let counter = 0;

    const createStrategy = async (): Promise<void> => {
      counter += 1;
      const started = performance.now();
      const startedIn = phase;
      const response = await fetch(`${base}/api/strategies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie: `${SESSION_COOKIE}=${ann.client.cookie}` },
        body: JSON.stringify({ name: `restart probe ${counter}`, strategy_type: 'vertical_spread' }),
        signal: AbortSignal.timeout(REQUEST_BUDGET_MS * 3),
      });
      const body = (await response.json()) as { id?: number; error?: string };
      outcomes.push({
        phase: startedIn === phase ? phase : 'down',
        status: response.status,
        error: body.error,
        retryAfter: response.headers.get('retry-after'),
        ms: performance.now() - started,
        strategyId: response.status === 201 ? body.id : undefined,
      });
    };
    const writer = async () => {
      while (running) {
        await createStrategy();
        if (phase === 'down') await sleep(20);
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);

    await sleep(500);
    phase = 'down';
    postgres.crash();
    await sleep(1_500);
    postgres.start();
    // Recovery: the same server, no restart, answers writes again within a few seconds.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !outcomes.slice(-WRITERS).every((o) => o.status === 201)) await sleep(100);
    phase = 'after';
    await sleep(500);
    running = false;
    await Promise.all(writers);

    const statuses = new Map<string, number>();
    for (const o of outcomes) statuses.set(`${o.phase} ${o.status} ${o.error ?? ''}`, (statuses.get(`${o.phase} ${o.status} ${o.error ?? ''}`) ?? 0) + 1);
    console.info('PostgreSQL restart:', Object.fromEntries(statuses), `slowest ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms`);

    const refused = outcomes.filter((o) => o.status !== 201);
    expect(refused.length, 'the outage was seen').toBeGreaterThan(0);
    for (const o of refused) {
      expect({ status: o.status, error: o.error }).toEqual({ status: 503, error: 'database_unavailable' });
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
    }
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(REQUEST_BUDGET_MS);
    expect(outcomes.filter((o) => o.phase === 'before' && o.status === 201).length).toBeGreaterThan(0);
    const after = outcomes.filter((o) => o.phase === 'after');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 201)).toBe(true);

    const acknowledged = outcomes.flatMap((o) => (o.strategyId === undefined ? [] : [o.strategyId]));
    const stored = await database.db.selectFrom('strategies').select('id').where('id', 'in', acknowledged).execute();
    expect(stored.map((row) => row.id).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
  });
});
