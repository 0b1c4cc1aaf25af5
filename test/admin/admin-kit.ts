import type { App } from '../../src/app.js';
import { setAdminRole } from '../../src/admin/admin.service.js';
import type { Clock } from '../../src/platform/clock.js';
import type { Db } from '../../src/platform/db/database.js';
import { signedInAccount, type SignedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

/** A signed-in account given the admin role by the service `tradelab admin grant` calls. */
export async function signedInAdmin(app: App, db: Db, clock: Clock): Promise<SignedInAccount> {
  const account = await signedInAccount(new HttpClient(app), db);
  await setAdminRole(db, clock, account.email, true);
  return account;
}

/** A fresh step-up assertion of `account`'s passkey, made from `POST /api/auth/step-up/options`. */
export async function freshStepUp(account: SignedInAccount): Promise<unknown> {
  const options = await account.client.post('step-up/options');
  if (options.statusCode !== 200) throw new Error(`step-up/options: ${options.statusCode} ${options.body}`);
  return account.authenticator.getAssertion(options.json());
}

/** Every admin route, as a request a client can make. */
export const ADMIN_ROUTES: readonly { method: 'GET' | 'POST'; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/api/admin/users' },
  { method: 'GET', url: '/api/admin/audit' },
  { method: 'GET', url: '/api/admin/breach' },
  { method: 'POST', url: '/api/admin/breach/notify', body: { summary: 'A test incident summary', severity: 'low', affected: 'all' } },
  { method: 'POST', url: '/api/admin/breach/00000000-0000-4000-8000-000000000000/steps', body: { step: 'note', note: 'A note' } },
];
