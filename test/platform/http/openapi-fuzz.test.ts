import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { signedInAccount } from '../../helpers/accounts.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { ManualClock } from '../../helpers/clock.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { freshAddress, HttpClient, SESSION_COOKIE } from '../../helpers/http-client.js';
import { casesFor, operationsOf, type FuzzRequest, type Operation } from './openapi-fuzz-cases.js';
import {
  changedTables,
  parserLevelRequests,
  problemsOf,
  requestBytes,
  sendRaw,
  snapshotTables,
  storedTables,
  type Reply,
} from './openapi-fuzz-checks.js';

/**
 * Every route and method in `/openapi.json`, fuzzed: generated bad bodies, parameters and headers, sent
 * signed out and signed in (an admin, so the admin routes validate too). Asserted on every reply: no 5xx, a
 * refusal for a request that carries a defect, `{error, message}` with the security headers on every 4xx,
 * a bounded size; and no stored row changed in any table of the live schema. Most requests go through
 * `inject`; a sample, and requests only a socket can send, go over a real socket so the HTTP parser's own
 * refusals are covered. FUZZ_SEED reruns one run exactly; FUZZ_REQUESTS sets the requests per dialect.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUESTS_PER_DIALECT = Number(process.env.FUZZ_REQUESTS ?? 5_200);
/** One generated request in this many is also sent over the socket. */
const SOCKET_SAMPLE = 20;
const EXAMPLES_PER_FAILURE = 3;

describeEachDialect('every route of the OpenAPI document refuses generated bad requests', (db, dialect) => {
  let app: App;
  let port: number;
  let operations: Operation[];
  let cookie: string;
  let tables: string[];

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { clock: new ManualClock() });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    operations = operationsOf((await app.inject({ url: '/openapi.json' })).json());
    cookie = await signInAdmin();
    tables = await storedTables(db().handle);
    expect(tables).toContain('users');
  });

  afterAll(async () => {
    await app.close();
  });

  async function signInAdmin(): Promise<string> {
    const account = await signedInAccount(new HttpClient(app), db().handle.db);
    await db().handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', account.userId).execute();
    return account.client.cookie!;
  }

  async function stillSignedIn(): Promise<boolean> {
    const response = await app.inject({ url: '/api/auth/session', headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
    return response.statusCode === 200 && response.json().authenticated !== false;
  }

  it('answers every generated bad request as the contract says, and changes no stored row', async () => {
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    const failures = new Failures();
    const perBatch = Math.ceil(REQUESTS_PER_DIALECT / (operations.length * 2));
    let injected = 0;
    let overSocket = 0;
    expect(operations.length).toBeGreaterThan(20);

    for (const operation of operations) {
      for (const signedIn of [false, true]) {
        const headers = {
          origin: TEST_ORIGIN,
          'user-agent': 'openapi-fuzz',
          ...(signedIn ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
        };
        const cases = casesFor(operation, SEED + (signedIn ? 1 : 0), perBatch);
        const before = await snapshotTables(db().handle, tables);
        for (const [index, request] of cases.entries()) {
          const reply = await inject(request, headers);
          injected += 1;
          failures.add(request, reply, signedIn, 'inject');
          if (index % SOCKET_SAMPLE === 0) {
            const overWire = await sendRaw(port, requestBytes(request, headers));
            overSocket += 1;
            failures.add(request, overWire, signedIn, 'socket');
          }
        }
        const changed = changedTables(before, await snapshotTables(db().handle, tables));
        if (changed.length > 0) {
          const culprits = await culpritsOf(cases, headers);
          failures.record(
            `row_changed [${operation.method} ${operation.path}${signedIn ? ', signed in' : ''}]`,
            `${changed.join('; ')}; sent again one by one, these changed rows: ${culprits.join(' | ') || 'none'}`,
          );
        }
        if (signedIn && !(await stillSignedIn())) {
          failures.record(`session_lost [${operation.method} ${operation.path}]`, 'the fuzzed requests ended the session; signing in again');
          cookie = await signInAdmin();
        }
      }
    }

    const before = await snapshotTables(db().handle, tables);
    for (const operation of operations) {
      const url = operation.path.replaceAll(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const { name, bytes } of parserLevelRequests(url)) {
        const reply = await sendRaw(port, bytes);
        overSocket += 1;
        failures.addRaw(`parser: ${name}`, `${operation.method} ${url}`, reply);
      }
    }
    const changed = changedTables(before, await snapshotTables(db().handle, tables));
    if (changed.length > 0) failures.record('row_changed [parser-level requests]', changed.join('; '));

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    console.info(
      `openapi fuzz [${dialect}] seed ${SEED}: ${operations.length} operations, ${injected} injected + ${overSocket} over a socket in ${seconds} s (${cpuSeconds} s CPU); ${failures.total} failures`,
    );
    expect(failures.report(), `openapi fuzz [${dialect}] failed; rerun with FUZZ_SEED=${SEED}`).toBe('');
  }, 600_000);

  /** The first few requests of a batch that change stored rows when sent again, each between two snapshots. */
  async function culpritsOf(cases: FuzzRequest[], headers: Record<string, string>): Promise<string[]> {
    const culprits: string[] = [];
    for (const request of cases) {
      const before = await snapshotTables(db().handle, tables);
      const reply = await inject(request, headers);
      const changed = changedTables(before, await snapshotTables(db().handle, tables));
      if (changed.length > 0) culprits.push(`[${request.defect}] ${summarize(request, reply)} changed ${changed.map((c) => c.split(':')[0]).join(', ')}`);
      if (culprits.length === EXAMPLES_PER_FAILURE) break;
    }
    return culprits;
  }

  async function inject(request: FuzzRequest, headers: Record<string, string>): Promise<Reply> {
    const response = await app.inject({
      method: request.method as 'GET',
      url: request.url,
      remoteAddress: freshAddress(),
      headers: { ...headers, ...request.headers },
      ...(request.payload ? { payload: request.payload } : {}),
    });
    return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
  }
});

function summarize(request: FuzzRequest, reply: Reply | 'no_reply'): string {
  const sent = request.payload ? ` ${truncate(request.payload.toString('latin1'), 160)}` : '';
  const got = reply === 'no_reply' ? 'no reply' : `${reply.status} (${reply.body.length} B) ${truncate(reply.body.toString('utf8'), 200)}`;
  return `${request.method} ${truncate(request.url, 160)}${sent} → ${got}`;
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…(${text.length})`;
}

/** Failures by kind (what broke, for which defect), with a few examples each. */
class Failures {
  readonly #byKind = new Map<string, { count: number; examples: string[] }>();
  total = 0;

  add(request: FuzzRequest, reply: Reply | 'no_reply', signedIn: boolean, via: 'inject' | 'socket'): void {
    const problems = reply === 'no_reply' ? ['no_reply'] : problemsOf(reply, request.defect);
    const who = signedIn ? 'signed in' : 'signed out';
    for (const problem of problems) this.record(`${problem} [${request.defect}, ${via}]`, `${who}: ${summarize(request, reply)}`);
  }

  addRaw(name: string, target: string, reply: Reply | 'no_reply'): void {
    const problems = reply === 'no_reply' ? ['no_reply'] : problemsOf(reply, 'method.not_allowed');
    const got = reply === 'no_reply' ? 'no reply' : `${reply.status} ${truncate(reply.body.toString('utf8'), 200)}`;
    for (const problem of problems) this.record(`${problem} [${name}]`, `${target} → ${got}`);
  }

  record(kind: string, example: string): void {
    const entry = this.#byKind.get(kind) ?? { count: 0, examples: [] };
    entry.count += 1;
    if (entry.examples.length < EXAMPLES_PER_FAILURE) entry.examples.push(example);
    this.#byKind.set(kind, entry);
    this.total += 1;
  }

  report(): string {
    return [...this.#byKind.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, { count, examples }]) => `${count} × ${kind}\n${examples.map((e) => `    ${e}`).join('\n')}`)
      .join('\n');
  }
}
