import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import type { Db } from '../../src/platform/db/database.js';
import { TEST_ORIGIN } from '../helpers/app.js';
import { SoftwareAuthenticator, type Algorithm } from '../helpers/software-authenticator.js';
import { mailedLinkTokens } from '../helpers/mailbox.js';

/** A browser against the app: sends our Origin on writes and keeps the session cookie. */
export class Browser {
  cookie: string | undefined;

  constructor(readonly app: App) {}

  async request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(method === 'GET' ? {} : { origin: TEST_ORIGIN }),
        ...(this.cookie ? { cookie: `service_session=${this.cookie}` } : {}),
        'user-agent': 'vitest-browser/1.0',
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const set = response.cookies.find((c) => c.name === 'service_session');
    if (set) this.cookie = set.value === '' || (set.maxAge !== undefined && set.maxAge <= 0) ? undefined : set.value;
    return response;
  }

  post(url: string, body?: unknown) {
    return this.request('POST', url, body);
  }
  get(url: string) {
    return this.request('GET', url);
  }
}

export function newAuthenticator(algorithm: Algorithm = 'ES256', extra: { signCount?: 'increment' | 'zero'; backupEligible?: boolean } = {}) {
  return new SoftwareAuthenticator({ origin: TEST_ORIGIN, algorithm, ...extra });
}

/** The token of the newest mail link to `to` for `page` (`verify-email` or `recover`), as delivered. */
export async function latestLinkToken(db: Db, to: string, page: 'verify-email' | 'recover'): Promise<string> {
  const token = (await mailedLinkTokens(db, to, page)).at(-1);
  if (!token) throw new Error(`no ${page} link mailed to ${to}`);
  return token;
}

export async function mailsTo(db: Db, to: string): Promise<{ subject: string; text_body: string }[]> {
  return db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to).orderBy('created_at').execute();
}

/** Registers through HTTP: options, the authenticator's attestation, verify. */
export async function register(browser: Browser, authenticator: SoftwareAuthenticator, email: string, displayName = 'Ann') {
  const options = await browser.post('/api/auth/register/options', { email, display_name: displayName });
  if (options.statusCode !== 200) return options;
  return browser.post('/api/auth/register/verify', authenticator.createCredential(options.json()));
}

/** Usernameless sign-in with the authenticator's newest (or the named) credential. */
export async function signIn(browser: Browser, authenticator: SoftwareAuthenticator, credentialId?: string) {
  const options = await browser.post('/api/auth/login/options');
  return browser.post('/api/auth/login/verify', authenticator.getAssertion(options.json(), credentialId ? { credentialId } : {}));
}

/** Register, confirm the mailed link, sign in: a ready account. */
export async function signedUpUser(app: App, db: Db, email: string, authenticator = newAuthenticator()) {
  const browser = new Browser(app);
  const registered = await register(browser, authenticator, email);
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  const token = await latestLinkToken(db, email, 'verify-email');
  const verified = await browser.get(`/api/auth/email/verify?token=${token}`);
  if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.body}`);
  const signedIn = await signIn(browser, authenticator);
  if (signedIn.statusCode !== 200) throw new Error(`sign-in failed: ${signedIn.body}`);
  return { browser, authenticator, userId: registered.json().user_id as string };
}
