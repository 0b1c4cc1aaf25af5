import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { Db } from '../../src/platform/db/database.js';
import { TEST_ORIGIN } from '../helpers/app.js';
import { SoftwareAuthenticator, type AssertionOverrides, type RegistrationOverrides } from '../helpers/software-authenticator.js';
import { mailedLinkTokens } from '../helpers/mailbox.js';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * Helpers for the auth refusal, fuzz and two-instance tests: an HTTP client over `inject` with a cookie
 * and its own client address, whole ceremonies with the software authenticator, and table snapshots.
 */
export const AUTH = '/api/auth';
export const SESSION_COOKIE = 'service_session';

let addressCounter = 0;
/** A fresh /24 per client, so per-prefix rate limits never join tests together. */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 8) & 255}.${addressCounter & 255}.7`;
}

export type Requester = Pick<App, 'inject'>;

export class AuthClient {
  cookie: string | undefined;
  readonly address: string;

  constructor(
    public app: Requester,
    options: { address?: string } = {},
  ) {
    this.address = options.address ?? freshAddress();
  }

  /** Another client (a different browser) on the same app. */
  on(app: Requester): AuthClient {
    const other = new AuthClient(app, { address: this.address });
    other.cookie = this.cookie;
    return other;
  }

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url: path.startsWith('/') ? path : `${AUTH}/${path}`,
      remoteAddress: this.address,
      headers: {
        ...(method === 'GET' ? {} : { origin: TEST_ORIGIN }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const issued = sessionCookieOf(response);
    if (issued !== undefined) this.cookie = issued || undefined;
    return response;
  }

  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('POST', path, body, headers);
  }

  get(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('GET', path, undefined, headers);
  }
}

/** The value of a `service_session` Set-Cookie ('' when cleared), or undefined when none was sent. */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const raw = response.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const line of lines) {
    const match = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match) {
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line);
      return expired ? '' : (match[1] ?? '');
    }
  }
  return undefined;
}

export function expectNoSessionIssued(response: LightMyRequestResponse): void {
  expect(sessionCookieOf(response) || undefined, 'no service_session cookie with a value').toBeUndefined();
}

export function expectRefusal(response: LightMyRequestResponse, status: number, error: string): void {
  expect({ status: response.statusCode, body: safeJson(response.body) }).toMatchObject({ status, body: { error } });
  expectNoSessionIssued(response);
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rows of the tables a refusal must never touch, in a stable order. */
export const GUARDED_TABLES = ['users', 'passkey_credentials', 'sessions', 'email_verifications'] as const;

export async function snapshot(
  db: Db,
  tables: readonly (keyof import('../../src/platform/db/schema.js').Database)[] = GUARDED_TABLES,
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .map((row) => normalise(row))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value instanceof Uint8Array ? Buffer.from(value).toString('base64url') : value;
  }
  return out;
}

export async function countRows(db: Db, table: 'audit_entries' | 'mail_outbox' | 'webauthn_challenges' | 'sessions'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The link tokens mailed to an address, oldest first (queued mails are delivered first). */
export async function mailedTokens(db: Db, to: string): Promise<string[]> {
  return mailedLinkTokens(db, to);
}

export async function lastMailedToken(db: Db, to: string): Promise<string> {
  const tokens = await mailedTokens(db, to);
  const token = tokens.at(-1);
  if (!token) throw new Error(`no link mailed to ${to}`);
  return token;
}

export function newAuthenticator(options: Partial<ConstructorParameters<typeof SoftwareAuthenticator>[0]> = {}): SoftwareAuthenticator {
  return new SoftwareAuthenticator({ origin: TEST_ORIGIN, ...options });
}

let emailCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${Date.now().toString(36)}@example.com`;
}

export async function registrationOptions(client: AuthClient, email: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const response = await client.post('register/options', { email, display_name: 'Test User' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function loginOptions(client: AuthClient): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const response = await client.post('login/options');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Register → verify the mailed link: an account that can sign in. */
export async function registerVerified(
  client: AuthClient,
  db: Db,
  authenticator: SoftwareAuthenticator,
  email = uniqueEmail(),
): Promise<{ userId: string; email: string; credentialId: string; userHandle: string }> {
  const options = await registrationOptions(client, email);
  const attestation = authenticator.createCredential(options);
  const verified = await client.post('register/verify', attestation);
  expect(verified.statusCode, verified.body).toBe(201);
  const token = await lastMailedToken(db, email);
  const confirmed = await client.get(`email/verify?token=${token}`);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { userId: verified.json().user_id, email, credentialId: attestation.id, userHandle: options.user.id };
}

export async function signIn(
  client: AuthClient,
  authenticator: SoftwareAuthenticator,
  overrides: AssertionOverrides = {},
): Promise<LightMyRequestResponse> {
  const options = await loginOptions(client);
  return client.post('login/verify', authenticator.getAssertion(options, overrides));
}

export async function signedInAccount(
  client: AuthClient,
  db: Db,
  authenticator = newAuthenticator(),
): Promise<{ userId: string; email: string; credentialId: string; userHandle: string; authenticator: SoftwareAuthenticator }> {
  const account = await registerVerified(client, db, authenticator);
  const response = await signIn(client, authenticator);
  expect(response.statusCode, response.body).toBe(200);
  expect(client.cookie).toBeTruthy();
  return { ...account, authenticator };
}

export type { AssertionOverrides, RegistrationOverrides, AuthenticationResponseJSON, RegistrationResponseJSON };
