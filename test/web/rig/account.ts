import type { Page } from 'playwright-core';
import { VirtualAuthenticator } from './authenticator.js';
import type { WebServer } from './server.js';

/**
 * A new account, signed in, for journeys that are not about accounts: sign up with a passkey on a virtual
 * authenticator, confirm the address from the mail (over SMTP), then sign in and land on `next`. The
 * authenticator gives presence by itself and holds the passkey, so Chromium answers the sign-in page's
 * passkey-autofill request at once (docs/web-app.md, "Testing passkeys in Chromium"); the button is the
 * fallback. The accounts browser test walks the same steps with every check.
 */
export async function signUpAndSignIn(page: Page, server: WebServer, email: string, next: string): Promise<VirtualAuthenticator> {
  const device = await VirtualAuthenticator.attach(page);
  await page.goto(`${server.origin}/sign-up`);
  await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Display name (optional)').fill(email.split('@')[0]!);
  const prepared = page.waitForResponse((response) => response.url().endsWith('/api/auth/register/options'));
  await page.getByLabel('Display name (optional)').press('Tab');
  await prepared;
  await page.getByRole('button', { name: 'Create account with a passkey' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();

  const mail = await server.mailTo(email, /^Confirm your email address/);
  await page.goto(server.linkIn(mail));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your address is confirmed' }).waitFor();

  const target = `${server.origin}${next}`;
  await page.goto(`${server.origin}/sign-in?next=${encodeURIComponent(next)}`);
  const landed = await page.waitForURL(target, { timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  if (!landed) {
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(target);
  }
  return device;
}
