/**
 * What the HTTP benchmarks share: requests as a browser on its own /24 sends them (Origin, X-Forwarded-For with
 * TRUST_PROXY=127.0.0.1), accounts registered and confirmed through the real mail job, passkey sign-in with the
 * software authenticator, autocannon load with its figures, and a fresh PostgreSQL schema.
 */
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import type { DatabaseHandle } from '../src/platform/db/database.js';
import { SoftwareAuthenticator } from '../test/helpers/software-authenticator.js';
import { mailedLinkTokens } from '../test/helpers/mailbox.js';

export const ORIGIN = 'http://localhost:3000';
export const seconds = Number(process.env.BENCH_SECONDS ?? 8);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

export interface LoadResult {
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

export async function post(url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; cookie?: string }> {
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

/** Register → the mailed link (delivered through the real mail job, which mints it) → verified: an account ready to sign in. */
export async function registerAccount(url: string, database: DatabaseHandle, index: number): Promise<SoftwareAuthenticator> {
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

export async function signIn(url: string, authenticator: SoftwareAuthenticator): Promise<{ status: number; cookie?: string }> {
  const options = await post(`${url}/api/auth/login/options`);
  if (options.status !== 200) return { status: options.status };
  return post(`${url}/api/auth/login/verify`, authenticator.getAssertion(options.json as never));
}

export async function loadEndpoint(
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

/** Drops and recreates `schema`, so each bench run starts from an empty database. */
export async function resetSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.query(`create schema ${schema}`);
  await client.end();
}

/** What `timedLoops` measured: successes, their rate, latency percentiles and failures. */
export interface LoopFigures {
  seconds: number;
  done: number;
  per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  failures: number;
}

/**
 * One request loop per client, each calling `attempt` (with a counter of its own) back to back until `seconds` have
 * passed; an attempt answering true counts with its latency, false as a failure.
 */
export async function timedLoops<Client>(clients: readonly Client[], attempt: (client: Client, n: number) => Promise<boolean>): Promise<LoopFigures> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      for (let n = 0; performance.now() < deadline; n += 1) {
        const begin = performance.now();
        if (await attempt(client, n)) latencies.push(performance.now() - begin);
        else failures += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return {
    seconds: Math.round(elapsed * 10) / 10,
    done: latencies.length,
    per_second: Math.round((latencies.length / elapsed) * 10) / 10,
    latency_p50_ms: at(0.5),
    latency_p99_ms: at(0.99),
    failures,
  };
}
