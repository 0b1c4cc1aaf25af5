import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR } from '../../src/platform/clock.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { coseKey, type SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { latestLinkToken, newAuthenticator, registrationOptions, signedInAccount, uniqueEmail } from '../helpers/accounts.js';
import { HttpClient, sessionCookieOf } from '../helpers/http-client.js';
import { countRows, snapshot } from './refusals-kit.js';

/**
 * Property: random and mutated ceremony payloads at every auth endpoint never get a 5xx, never a
 * session (no `service_session` cookie with a value), and never change a row of users,
 * passkey_credentials, sessions or email_verifications, nor add an audit entry or a mail.
 *
 * Not compared: webauthn_challenges and rate_limit_counters. The options endpoints legitimately add a
 * challenge row per call (that is their job), a verify endpoint legitimately deletes the challenge it
 * was sent (single use, even when the rest fails), and every request counts against a rate limit.
 *
 * Mutations that leave a payload valid (the library still verifies it and it names the same credential
 * and account) are discarded with `fc.pre`: accepting those is correct behaviour, not a finding.
 * Each request comes from a fresh client network so the per-prefix rate limits never answer instead.
 */
const ARBITRARY_RUNS = 600;
const MUTATION_RUNS = 250;
const RP_ID = new URL(TEST_ORIGIN).hostname;

const POST_ENDPOINTS = [
  'register/options',
  'register/verify',
  'login/options',
  'login/verify',
  'logout',
  'session/refresh',
  'step-up/options',
  'step-up/verify',
  'credentials/add/options',
  'credentials/add/verify',
  'recovery/start',
  'recovery/complete',
] as const;

/**
 * Endpoints that legitimately change rows for an empty request from the signed-in user (logout revokes,
 * refresh rolls the expiry): they get a made-up cookie instead, so the property is about the payload.
 */
const NOT_WITH_SESSION = new Set(['logout', 'session/refresh']);

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Text with the characters databases and parsers trip on: NUL (PostgreSQL text cannot hold it), lone surrogates, BOM, RTL override. */
const awkwardText = fc.string({
  unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udfff', '\ufeff', '\u202e', '%', "'"), fc.string({ minLength: 1, maxLength: 1 })),
  minLength: 1,
  maxLength: 40,
});

describeEachDialect('auth fuzz (fast-check)', (database) => {
  let app: App;
  let signedIn: HttpClient;
  let account: Awaited<ReturnType<typeof signedInAccount>>;
  let recoveryToken: string;
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const db = () => database().handle.db;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    signedIn = new HttpClient(app);
    account = await signedInAccount(signedIn, db());
    expect((await new HttpClient(app).post('recovery/start', { email: account.email })).statusCode).toBe(202);
    recoveryToken = await latestLinkToken(db(), account.email);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Runs a request and checks the property; returns the response for extra checks. */
  async function harmless(act: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    const before = await snapshot(db());
    const audit = await countRows(db(), 'audit_entries');
    const mail = await countRows(db(), 'mail_outbox');
    const response = await act();
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(sessionCookieOf(response) || undefined, 'no session cookie').toBeUndefined();
    expect(await snapshot(db())).toEqual(before);
    expect(await countRows(db(), 'audit_entries')).toBe(audit);
    expect(await countRows(db(), 'mail_outbox')).toBe(mail);
    return response;
  }

  /** A client with the signed-in cookie but its own network, or a stranger with a random cookie. */
  function clientFor(endpoint: string, withSession: boolean): HttpClient {
    const client = new HttpClient(app);
    if (withSession && !NOT_WITH_SESSION.has(endpoint)) client.cookie = signedIn.cookie;
    else if (withSession) client.cookie = b64(Buffer.alloc(32, 7));
    return client;
  }

  const arbitraryBody = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 200 }),
    fc.record({
      id: fc.oneof(fc.base64String(), fc.string(), fc.integer()),
      rawId: fc.oneof(fc.base64String(), fc.string()),
      type: fc.oneof(fc.constant('public-key'), fc.string()),
      response: fc.dictionary(
        fc.constantFrom('clientDataJSON', 'attestationObject', 'authenticatorData', 'signature', 'userHandle', 'transports'),
        fc.oneof(fc.base64String().map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')), fc.jsonValue({ maxDepth: 2 })),
      ),
      clientExtensionResults: fc.constant({}),
      token: fc.oneof(fc.string(), awkwardText),
      email: fc.oneof(fc.emailAddress(), fc.string(), awkwardText),
      display_name: fc.oneof(fc.string(), awkwardText),
      credential: fc.jsonValue({ maxDepth: 2 }),
    }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  );

  it('arbitrary bodies at every POST endpoint, with and without a session', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ENDPOINTS), arbitraryBody, fc.boolean(), async (endpoint, body, withSession) => {
        await harmless(() => clientFor(endpoint, withSession).post(endpoint, body));
      }),
      { numRuns: ARBITRARY_RUNS },
    );
  });

  it('arbitrary tokens, cookies, credential ids and labels at the GET, PATCH and DELETE endpoints and the mail-link pages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), fc.string({ maxLength: 80 }), fc.oneof(fc.jsonValue({ maxDepth: 2 }), awkwardText), async (text, id, label) => {
        const stranger = new HttpClient(app);
        await harmless(() => stranger.get(`email/verify?token=${encodeURIComponent(text)}`));
        await harmless(() => stranger.get(`/verify-email?token=${encodeURIComponent(text)}`));
        await harmless(() => stranger.get(`/recover?token=${encodeURIComponent(text)}`));
        stranger.cookie = encodeURIComponent(text);
        await harmless(() => stranger.get('session'));
        await harmless(() => stranger.get('credentials'));
        // Ids that are not the user's: every rename and delete must be a 404 (or 400), never a change.
        const member = clientFor('credentials', true);
        const path = `credentials/${encodeURIComponent(id || 'x')}`;
        await harmless(() => member.request('PATCH', path, JSON.stringify({ label })));
        await harmless(() => member.request('PATCH', path, JSON.stringify({ label: 'renamed' })));
        await harmless(() => member.request('DELETE', path));
      }),
      { numRuns: ARBITRARY_RUNS / 5 },
    );
  });

  it('mutated attestations at register/verify, credentials/add/verify and recovery/complete', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('register', 'add', 'recover'), mutation(REGISTRATION_FIELDS), async (flow, change) => {
        const client = new HttpClient(app);
        if (flow === 'add') client.cookie = signedIn.cookie;
        const options = await creationOptionsFor(client, flow);
        const valid = newAuthenticator().createCredential(options);
        const mutated = applyMutation(valid, change) as RegistrationResponseJSON;
        fc.pre(!(await stillValidAttestation(mutated, options)));
        const body = flow === 'recover' ? { token: recoveryToken, credential: mutated } : mutated;
        const endpoint = { register: 'register/verify', add: 'credentials/add/verify', recover: 'recovery/complete' }[flow];
        await harmless(() => client.post(endpoint, JSON.stringify(body)));
      }),
      { numRuns: MUTATION_RUNS },
    );
  });

  it('mutated assertions at login/verify and step-up/verify', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('login', 'step-up'), mutation(ASSERTION_FIELDS), async (flow, change) => {
        const client = new HttpClient(app);
        if (flow === 'step-up') client.cookie = signedIn.cookie;
        const options = (await client.post(`${flow}/options`)).json();
        const valid = account.authenticator.getAssertion(options);
        const mutated = applyMutation(valid, change) as AuthenticationResponseJSON;
        fc.pre(!(await stillValidAssertion(mutated, valid, options.challenge, account.authenticator, flow === 'step-up')));
        await harmless(() => client.post(`${flow}/verify`, JSON.stringify(mutated)));
      }),
      { numRuns: MUTATION_RUNS },
    );
  });

  // Last: it moves the clock a day on, past every other session of this file.
  it('session/refresh once a step-up is due: arbitrary bodies and mutated assertions', async () => {
    const owner = new HttpClient(app);
    const dueAccount = await signedInAccount(owner, db());
    for (let i = 0; i < 2; i += 1) {
      clock.advance(11 * HOUR);
      expect((await owner.post('session/refresh', {})).statusCode).toBe(200);
    }
    clock.advance(2 * HOUR);
    const input = fc.oneof(
      arbitraryBody.map((body) => ({ kind: 'body' as const, body })),
      mutation(ASSERTION_FIELDS).map((change) => ({ kind: 'mutated' as const, change })),
    );
    await fc.assert(
      fc.asyncProperty(input, async (sent) => {
        // A fresh minute per run keeps the account under session/refresh's 20-a-minute limit.
        clock.advance(60_000);
        const client = new HttpClient(app);
        client.cookie = owner.cookie;
        if (sent.kind === 'body') {
          await harmless(() => client.post('session/refresh', sent.body));
          return;
        }
        const due = await client.post('session/refresh', {});
        expect(due.statusCode, due.body).toBe(403);
        const options = due.json().options;
        const valid = dueAccount.authenticator.getAssertion(options);
        const mutated = applyMutation(valid, sent.change) as AuthenticationResponseJSON;
        fc.pre(!(await stillValidAssertion(mutated, valid, options.challenge, dueAccount.authenticator, true)));
        await harmless(() => client.post('session/refresh', JSON.stringify(mutated)));
      }),
      { numRuns: MUTATION_RUNS },
    );
  });

  async function creationOptionsFor(client: HttpClient, flow: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    if (flow === 'register') return registrationOptions(client, uniqueEmail('fuzz'));
    const response = flow === 'add' ? await client.post('credentials/add/options') : await client.post('recovery/complete', { token: recoveryToken });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function stillValidAssertion(
    mutated: AuthenticationResponseJSON,
    valid: AuthenticationResponseJSON,
    challenge: string,
    authenticator: SoftwareAuthenticator,
    userKnown: boolean,
  ): Promise<boolean> {
    const userHandle = mutated?.response?.userHandle;
    // §7.2 step 6: when the user is known before the ceremony (step-up), userHandle may be left out.
    const handleOk = userHandle === valid.response.userHandle || (userKnown && (userHandle === undefined || userHandle === null));
    if (mutated?.id !== valid.id || mutated.rawId !== valid.rawId || !handleOk) return false;
    const stored = await db().selectFrom('passkey_credentials').select('sign_count').where('id', '=', valid.id).executeTakeFirstOrThrow();
    const key = authenticator.credential(valid.id);
    try {
      const result = await verifyAuthenticationResponse({
        response: mutated,
        expectedChallenge: challenge,
        expectedOrigin: TEST_ORIGIN,
        expectedRPID: RP_ID,
        requireUserVerification: true,
        credential: { id: valid.id, publicKey: coseKey(key.publicKey, key.algorithm), counter: Number(stored.sign_count) },
      });
      return result.verified;
    } catch {
      return false;
    }
  }
});

async function stillValidAttestation(mutated: RegistrationResponseJSON, options: PublicKeyCredentialCreationOptionsJSON): Promise<boolean> {
  try {
    const result = await verifyRegistrationResponse({
      response: mutated,
      expectedChallenge: options.challenge,
      expectedOrigin: TEST_ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-8, -7, -257],
    });
    return result.verified;
  } catch {
    return false;
  }
}

// --- mutations ---------------------------------------------------------------------------------

const REGISTRATION_FIELDS = ['id', 'rawId', 'type', 'response', 'response.clientDataJSON', 'response.attestationObject', 'response.transports'];
const ASSERTION_FIELDS = [
  'id',
  'rawId',
  'type',
  'response',
  'response.clientDataJSON',
  'response.authenticatorData',
  'response.signature',
  'response.userHandle',
];
const CLIENT_DATA_KEYS = ['type', 'challenge', 'origin', 'crossOrigin', 'topOrigin', '__proto__', 'constructor'];

type Mutation =
  | { kind: 'flip'; field: string; index: number; bit: number }
  | { kind: 'truncate'; field: string; keep: number }
  | { kind: 'replace'; field: string; value: unknown }
  | { kind: 'delete'; field: string }
  | { kind: 'clientData'; key: string; value: unknown }
  | { kind: 'extra'; key: string; value: unknown };

function mutation(fields: readonly string[]): fc.Arbitrary<Mutation> {
  const field = fc.constantFrom(...fields);
  return fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), field, index: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant('truncate' as const), field, keep: fc.nat({ max: 400 }) }),
    fc.record({ kind: fc.constant('replace' as const), field, value: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({ kind: fc.constant('delete' as const), field }),
    fc.record({ kind: fc.constant('clientData' as const), key: fc.constantFrom(...CLIENT_DATA_KEYS), value: fc.jsonValue({ maxDepth: 1 }) }),
    fc.record({ kind: fc.constant('extra' as const), key: fc.string({ minLength: 1, maxLength: 10 }), value: fc.jsonValue({ maxDepth: 1 }) }),
  );
}

function applyMutation(valid: object, change: Mutation): unknown {
  const copy = structuredClone(valid) as Record<string, unknown>;
  if (change.kind === 'extra') return { ...copy, [change.key]: change.value };
  if (change.kind === 'clientData') {
    const response = copy.response as Record<string, string>;
    const clientData = JSON.parse(Buffer.from(response.clientDataJSON!, 'base64url').toString('utf8')) as Record<string, unknown>;
    clientData[change.key] = change.value;
    response.clientDataJSON = Buffer.from(JSON.stringify(clientData)).toString('base64url');
    return copy;
  }
  const path = change.field.split('.');
  const last = path.pop()!;
  const parent = path.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  const current = parent[last];
  if (change.kind === 'delete') delete parent[last];
  else if (change.kind === 'replace') parent[last] = change.value;
  else if (typeof current === 'string') {
    const bytes = Buffer.from(current, 'base64url');
    if (change.kind === 'truncate') parent[last] = b64(bytes.subarray(0, Math.min(change.keep, Math.max(0, bytes.length - 1))));
    else if (bytes.length > 0) {
      bytes[change.index % bytes.length]! ^= 1 << change.bit;
      parent[last] = b64(bytes);
    }
  } else {
    parent[last] = null;
  }
  return copy;
}
