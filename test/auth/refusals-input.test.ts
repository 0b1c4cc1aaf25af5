import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { cborMap, encodeCbor } from '../helpers/cbor.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { loginOptions, newAuthenticator, registrationOptions, signedInAccount, uniqueEmail } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { countRows, expectRefusal, snapshot } from './refusals-kit.js';

const b64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64url');

/** Every POST of /api/auth that takes a body, and the body a browser would send. */
const BODY_ENDPOINTS = [
  'register/options',
  'register/verify',
  'login/verify',
  'session/refresh',
  'step-up/verify',
  'credentials/add/verify',
  'recovery/start',
  'recovery/complete',
] as const;
const ALL_POSTS = [...BODY_ENDPOINTS, 'login/options', 'logout', 'step-up/options', 'credentials/add/options'] as const;

/**
 * Malformed input (JSON, base64url, CBOR, shapes, sizes) and cross-origin requests: a clear 4xx,
 * never a 500, no session, no row changed.
 */
describeEachDialect('auth refusals: malformed input and cross-origin requests', (database) => {
  let app: App;
  let signedIn: HttpClient;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    signedIn = new HttpClient(app);
    await signedInAccount(signedIn, db());
  });
  afterAll(async () => {
    await app?.close();
  });

  async function unchanged(act: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    const before = await snapshot(db());
    const audit = await countRows(db(), 'audit_entries');
    const response = await act();
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(audit);
    return response;
  }

  it.each(BODY_ENDPOINTS)('POST %s with a body that is not JSON: 400 malformed_json', async (endpoint) => {
    const response = await unchanged(() => signedIn.post(endpoint, '{"id": "abc", '));
    expectRefusal(response, 400, 'malformed_json');
  });

  it.each(BODY_ENDPOINTS)('POST %s with text/plain: 415', async (endpoint) => {
    const response = await unchanged(() => signedIn.post(endpoint, 'hello', { 'content-type': 'text/plain' }));
    expect(response.statusCode).toBe(415);
  });

  it.each(BODY_ENDPOINTS)('POST %s with a body over the limit: 413 payload_too_large', async (endpoint) => {
    const huge = JSON.stringify({ id: 'a'.repeat(1024 * 1024 + 10) });
    const response = await unchanged(() => signedIn.post(endpoint, huge));
    expectRefusal(response, 413, 'payload_too_large');
  });

  it.each(ALL_POSTS)('POST %s from another origin: 403 origin_mismatch', async (endpoint) => {
    const response = await unchanged(() => signedIn.post(endpoint, {}, { origin: 'https://evil.example' }));
    expectRefusal(response, 403, 'origin_mismatch');
  });

  it.each(ALL_POSTS)('POST %s without an Origin header: 403 origin_mismatch', async (endpoint) => {
    const response = await unchanged(() =>
      app.inject({ method: 'POST', url: `/api/auth/${endpoint}`, headers: { cookie: `service_session=${signedIn.cookie}` }, remoteAddress: signedIn.address }),
    );
    expectRefusal(response, 403, 'origin_mismatch');
  });

  const shapes: [string, (valid: Record<string, unknown>) => unknown][] = [
    ['an empty object', () => ({})],
    ['an array', (v) => [v]],
    ['a JSON string', () => JSON.stringify('public-key')],
    ['JSON null', () => 'null'],
    ['a number', () => 42],
    ['id as a number', (v) => ({ ...v, id: 12345, rawId: 12345 })],
    ['id that is not base64url', (v) => ({ ...v, id: 'a+b/c==', rawId: 'a+b/c==' })],
    ['type other than public-key', (v) => ({ ...v, type: 'password' })],
    ['no response', (v) => ({ ...v, response: undefined })],
    ['response as a string', (v) => ({ ...v, response: 'x' })],
    ['an unknown top-level member', (v) => ({ ...v, password: 'hunter2' })],
    ['clientDataJSON not base64url', (v) => withResponse(v, { clientDataJSON: 'e30+/w==' })],
    ['clientDataJSON base64url of no JSON', (v) => withResponse(v, { clientDataJSON: b64('not json at all') })],
    ['clientDataJSON JSON without a challenge', (v) => withResponse(v, { clientDataJSON: b64('{"type":"webauthn.get"}') })],
    ['clientDataJSON with a numeric challenge', (v) => withResponse(v, { clientDataJSON: b64('{"challenge":42}') })],
    ['clientDataJSON of JSON null', (v) => withResponse(v, { clientDataJSON: b64('null') })],
    ['an oversized clientDataJSON', (v) => withResponse(v, { clientDataJSON: 'A'.repeat(200_000) })],
  ];

  it.each(shapes)('register/verify with %s: 400 invalid_payload', async (_name, mutate) => {
    const client = new HttpClient(app);
    const options = await registrationOptions(client, uniqueEmail());
    const valid = newAuthenticator().createCredential(options) as unknown as Record<string, unknown>;
    expectRefusal(await unchanged(() => client.post('register/verify', mutate(valid))), 400, 'invalid_payload');
  });

  it.each(shapes)('login/verify with %s: 400 invalid_payload', async (_name, mutate) => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const valid = authenticator.getAssertion(await loginOptions(client)) as unknown as Record<string, unknown>;
    expectRefusal(await unchanged(() => new HttpClient(app).post('login/verify', mutate(valid))), 400, 'invalid_payload');
  });

  it.each([
    ['not CBOR at all', b64('definitely not cbor')],
    ['CBOR of a text string', b64(encodeCbor('fmt'))],
    ['CBOR map without authData', b64(encodeCbor(cborMap({ fmt: 'none', attStmt: new Map() })))],
    ['authData of 10 bytes', b64(encodeCbor(cborMap({ fmt: 'none', attStmt: new Map(), authData: new Uint8Array(10) })))],
    ['truncated CBOR', null],
  ] as const)('register/verify with an attestationObject that is %s: 400, nothing stored', async (_name, attestationObject) => {
    const client = new HttpClient(app);
    const options = await registrationOptions(client, uniqueEmail());
    const valid = newAuthenticator().createCredential(options);
    const broken = attestationObject ?? valid.response.attestationObject.slice(0, 60);
    const response = await unchanged(() => client.post('register/verify', { ...valid, response: { ...valid.response, attestationObject: broken } }));
    expect(response.statusCode).toBe(400);
    expect(['registration_failed', 'invalid_payload']).toContain(response.json().error);
  });

  it.each([
    ['authenticatorData of 5 bytes', { authenticatorData: b64(new Uint8Array(5)) }],
    ['a signature that is not DER', { signature: b64('not a signature') }],
    ['an empty-looking signature', { signature: 'AA' }],
    ['a userHandle that is not base64url', { userHandle: '!!not base64url!!' }],
  ] as const)('login/verify with %s: a 4xx, no session', async (_name, change) => {
    const client = new HttpClient(app);
    const { authenticator } = await signedInAccount(client, db());
    const valid = authenticator.getAssertion(await loginOptions(client));
    const stranger = new HttpClient(app);
    const response = await unchanged(() => stranger.post('login/verify', { ...valid, response: { ...valid.response, ...change } }));
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(stranger.cookie).toBeUndefined();
  });

  // PostgreSQL cannot store U+0000 in text: a NUL that reaches a query is a 500 there, not on SQLite.
  it('a NUL character in a label, an email or a display name is a 4xx (or stored harmlessly), never a 500', async () => {
    const client = new HttpClient(app);
    const account = await signedInAccount(client, db());
    const answers: Record<string, number> = {};
    answers['PATCH credentials/{id} label'] = (await client.request('PATCH', `credentials/${account.credentialId}`, { label: 'desk\u0000top' })).statusCode;
    answers['recovery/start email'] = (await new HttpClient(app).post('recovery/start', { email: 'ada\u0000@example.com' })).statusCode;
    answers['register/options email'] = (await new HttpClient(app).post('register/options', { email: 'ada\u0000@example.com', display_name: 'x' })).statusCode;
    const registering = new HttpClient(app);
    const options = await registering.post('register/options', { email: uniqueEmail(), display_name: 'Ada\u0000' });
    answers['register/options display_name'] = options.statusCode;
    if (options.statusCode === 200) {
      answers['register/verify with that display name'] = (await registering.post('register/verify', newAuthenticator().createCredential(options.json()))).statusCode;
    }
    const serverErrors = Object.entries(answers).filter(([, status]) => status >= 500);
    expect(serverErrors, JSON.stringify(answers)).toEqual([]);
  });

  it('register/options with an invalid email or an over-long display name: 400, no challenge stored', async () => {
    const client = new HttpClient(app);
    const challenges = await countRows(db(), 'webauthn_challenges');
    for (const body of [
      { email: 'not-an-email', display_name: 'x' },
      { email: uniqueEmail(), display_name: 'x'.repeat(500) },
      { email: uniqueEmail() },
      { email: uniqueEmail(), display_name: 'x', extra: true },
      { email: 42, display_name: 'x' },
    ]) {
      const response = await unchanged(() => client.post('register/options', body));
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countRows(db(), 'webauthn_challenges')).toBe(challenges);
  });
});

function withResponse(valid: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  return { ...valid, response: { ...(valid.response as Record<string, unknown>), ...change } };
}
