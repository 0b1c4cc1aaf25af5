import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { Db } from '../../src/platform/db/database.js';
import { TEST_ORIGIN } from './app.js';
import type { HttpClient } from './http-client.js';
import { mailedLinkTokens } from './mailbox.js';
import { SoftwareAuthenticator, type AssertionOverrides, type SoftwareAuthenticatorOptions } from './software-authenticator.js';

/**
 * Accounts over HTTP with the software authenticator: the ceremonies, the mailed links, and a ready
 * signed-in account. Every step goes through the real routes with an {@link HttpClient}.
 */

/** A software authenticator for the test origin (ES256, synced passkey, counting signatures unless told otherwise). */
export function newAuthenticator(options: Partial<SoftwareAuthenticatorOptions> = {}): SoftwareAuthenticator {
  return new SoftwareAuthenticator({ origin: TEST_ORIGIN, ...options });
}

let emailCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${Date.now().toString(36)}@example.com`;
}

/** The link tokens mailed to an address (all, or of one page), oldest first (queued mails are delivered first). */
export async function mailedTokens(db: Db, to: string, page?: 'verify-email' | 'recover'): Promise<string[]> {
  return mailedLinkTokens(db, to, page);
}

/** The token of the newest mail link to `to` (of `page`: `verify-email` or `recover`), as delivered. */
export async function latestLinkToken(db: Db, to: string, page?: 'verify-email' | 'recover'): Promise<string> {
  const token = (await mailedTokens(db, to, page)).at(-1);
  if (!token) throw new Error(`no ${page ? `${page} ` : ''}link mailed to ${to}`);
  return token;
}

/** The mails queued for `to`, oldest first. */
export async function mailsTo(db: Db, to: string): Promise<{ subject: string; text_body: string }[]> {
  return db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to).orderBy('created_at').execute();
}

/** Registers through HTTP: options, the authenticator's attestation, verify. Answers the last response, whatever it is. */
export async function register(client: HttpClient, authenticator: SoftwareAuthenticator, email: string, displayName = 'Ann') {
  const options = await client.post('register/options', { email, display_name: displayName });
  if (options.statusCode !== 200) return options;
  return client.post('register/verify', authenticator.createCredential(options.json()));
}

export async function registrationOptions(client: HttpClient, email: string, displayName = 'Test User'): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const response = await client.post('register/options', { email, display_name: displayName });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function loginOptions(client: HttpClient): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const response = await client.post('login/options');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Register → verify the mailed link: an account that can sign in. */
export async function registerVerified(
  client: HttpClient,
  db: Db,
  authenticator: SoftwareAuthenticator,
  email = uniqueEmail(),
  displayName?: string,
): Promise<{ userId: string; email: string; credentialId: string; userHandle: string }> {
  const options = await registrationOptions(client, email, displayName);
  const attestation = authenticator.createCredential(options);
  const verified = await client.post('register/verify', attestation);
  expect(verified.statusCode, verified.body).toBe(201);
  const token = await latestLinkToken(db, email, 'verify-email');
  const confirmed = await client.get(`email/verify?token=${token}`);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { userId: verified.json().user_id, email, credentialId: attestation.id, userHandle: options.user.id };
}

/** Usernameless sign-in with the authenticator's newest credential (or the one `overrides` name). */
export async function signIn(
  client: HttpClient,
  authenticator: SoftwareAuthenticator,
  overrides: AssertionOverrides = {},
): Promise<LightMyRequestResponse> {
  const options = await loginOptions(client);
  return client.post('login/verify', authenticator.getAssertion(options, overrides));
}

export interface SignedInAccount {
  readonly client: HttpClient;
  readonly userId: string;
  readonly email: string;
  readonly credentialId: string;
  readonly userHandle: string;
  readonly authenticator: SoftwareAuthenticator;
}

/** Register, confirm the mailed link, sign in: a ready account, signed in on `client`. */
export async function signedInAccount(
  client: HttpClient,
  db: Db,
  options: { email?: string; authenticator?: SoftwareAuthenticator; displayName?: string } = {},
): Promise<SignedInAccount> {
  const authenticator = options.authenticator ?? newAuthenticator();
  const account = await registerVerified(client, db, authenticator, options.email ?? uniqueEmail(), options.displayName);
  const response = await signIn(client, authenticator);
  expect(response.statusCode, response.body).toBe(200);
  expect(client.cookie).toBeTruthy();
  return { ...account, client, authenticator };
}
