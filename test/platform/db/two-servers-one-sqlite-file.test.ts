import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { createTestDatabase } from '../../helpers/dialects.js';
import { freshAddress } from '../../helpers/http-client.js';
import { newAuthenticator, uniqueEmail } from '../../helpers/accounts.js';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';

/**
 * Two servers, in two processes, on one SQLite file, taking sign-ups at the same time. A transaction that reads
 * and then writes cannot upgrade its snapshot once the other process has written (SQLITE_BUSY_SNAPSHOT), so every
 * transaction on SQLite begins as a writer (BEGIN IMMEDIATE) and waits its turn. SQLite only: on PostgreSQL
 * several servers are the normal case (test/auth/two-instances.test.ts).
 */
describe('two servers on one SQLite file', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let here: App;
  let hereUrl: string;
  let other: ChildProcess;
  let otherUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    here = await buildTestApp(database.handle, { env: { TRUST_PROXY: 'loopback' } });
    hereUrl = await here.listen({ port: 0, host: '127.0.0.1' });
    other = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/serve-sqlite-file.ts'], {
      env: { ...process.env, SQLITE_PATH: database.connectionOptions.sqlitePath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    otherUrl = await new Promise<string>((resolve, reject) => {
      other.stdout!.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
      other.once('exit', (code) => reject(new Error(`the second server exited with ${code}`)));
    });
  }, 120_000);
  afterAll(async () => {
    other?.kill('SIGTERM');
    await here?.close();
    await database?.drop();
  });

  /** One sign-up over real HTTP: options from one server, the attestation verified by the other. */
  async function signUp(optionsFrom: string, verifyAt: string): Promise<number[]> {
    const headers = { 'content-type': 'application/json', origin: TEST_ORIGIN, 'x-forwarded-for': freshAddress() };
    const email = uniqueEmail('two-servers');
    const options = await fetch(`${optionsFrom}/api/auth/register/options`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, display_name: 'Ann' }),
    });
    if (options.status !== 200) return [options.status];
    const attestation = newAuthenticator().createCredential((await options.json()) as PublicKeyCredentialCreationOptionsJSON);
    const verified = await fetch(`${verifyAt}/api/auth/register/verify`, { method: 'POST', headers, body: JSON.stringify(attestation) });
    return [options.status, verified.status];
  }

  it('takes 150 concurrent sign-ups across both without a 500', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? signUp(hereUrl, otherUrl) : signUp(otherUrl, hereUrl))),
    );
    const tally: Record<string, number> = {};
    for (const status of statuses.flat()) tally[status] = (tally[status] ?? 0) + 1;
    expect(tally).toEqual({ 200: 150, 201: 150 });
    const users = await database.handle.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(users.n)).toBe(150);
  }, 120_000);
});
