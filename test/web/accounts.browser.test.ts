import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualAuthenticator } from './rig/authenticator.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';
import { recordWebAuthnCalls, webAuthnCalls } from './rig/webauthn-calls.js';
import { DIALECTS } from '../helpers/dialects.js';

const EMAIL = 'ann@example.com';

/** CDP reports credential ids in standard base64; the app and the database use base64url. */
const base64url = (cdpId: string) => Buffer.from(cdpId, 'base64').toString('base64url');

for (const dialect of DIALECTS) {
  describeInBrowser(`accounts in the web app on ${dialect} (Chromium, virtual authenticators)`, () => {
    const screenshots = dialect === 'sqlite' ? 'accounts' : `accounts-${dialect}`;
    let server: WebServer;
    let browser: BrowserSession;

    beforeAll(async () => {
      // Screenshots are numbered per run: drop the previous run's, which would interleave with these.
      rmSync(`test-output/browser/${screenshots}`, { recursive: true, force: true });
      server = await startWebServer({ dialect });
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const db = () => server.app.platform.db;
    const user = () => db().selectFrom('users').selectAll().where('email', '=', EMAIL).executeTakeFirstOrThrow();
    const passkeyIds = async () => (await db().selectFrom('passkey_credentials').select('id').execute()).map((row) => row.id).sort();
    const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
    const passkeyItems = (page: Page) => page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    /** Counts the page's requests to one API path (query string ignored). */
    const requestsTo = (page: Page, path: string) => {
      let count = 0;
      page.on('request', (request) => void (new URL(request.url()).pathname === path && (count += 1)));
      return () => count;
    };
    /** Waits until the page's passkey-autofill request is waiting (Chromium: the device has no presence yet). */
    const autofillPending = (page: Page) =>
      expect
        .poll(async () => (await webAuthnCalls(page)).filter((call) => call.mediation === 'conditional' && call.state === 'pending').length)
        .toBe(1);

    it('signs up, confirms by mail, signs in, adds a device, deletes one, recovers, and refuses the old passkey', async () => {
      const { page } = browser;
      const shot = screenshotTaker(page, screenshots);
      await recordWebAuthnCalls(page);
      const verifications = requestsTo(page, '/api/auth/login/verify');
      const emailVerifications = requestsTo(page, '/api/auth/email/verify');
      const device = await VirtualAuthenticator.attach(page);

      // Sign up: email and display name, then the passkey prompt (device A), then "check your inbox".
      await page.goto(`${server.origin}/sign-up`);
      await heading(page, 'Create an account');
      await page.getByLabel('Email address').fill('ann@');
      await page.getByRole('button', { name: 'Create account with a passkey' }).click();
      await page.getByText('Enter a valid email address').waitFor();
      expect(await page.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');
      // Focus goes to the refused field, so a screen reader reads its error with it.
      expect(await page.evaluate('document.activeElement.name')).toBe('email');
      await shot('sign-up-invalid-email');
      expect(await db().selectFrom('users').select('id').execute()).toEqual([]);
      await page.getByLabel('Email address').fill(EMAIL);
      await page.getByLabel('Display name (optional)').fill('Ann');
      await shot('sign-up-form');
      // Leaving the last field fetches the options, so the click calls WebAuthn at once (Safari's gesture rule).
      const registrationOptions = requestsTo(page, '/api/auth/register/options');
      const prepared = page.waitForResponse((response) => response.url().endsWith('/api/auth/register/options'));
      await page.getByLabel('Display name (optional)').press('Tab');
      await prepared;
      await page.getByRole('button', { name: 'Create account with a passkey' }).click();
      await heading(page, 'Check your inbox');
      expect(registrationOptions()).toBe(1);
      const inbox = await page.locator('main').innerText();
      expect(inbox).toContain(`We sent a link to ${EMAIL}`);
      expect(inbox).toContain('15 minutes');
      expect(inbox).toContain('No mail?');
      await shot('check-inbox');
      expect((await user()).email_verified_at).toBeNull();
      const [deviceA] = await device.credentials();
      expect(await passkeyIds()).toEqual([base64url(deviceA!.credentialId)]);

      // The mail arrives over SMTP; opening its link changes nothing until the button is pressed.
      const verification = await server.mailTo(EMAIL, /^Confirm your email address/);
      const verifyLink = server.linkIn(verification);
      expect(verifyLink.startsWith(`${server.origin}/verify-email?token=`)).toBe(true);
      await page.goto(verifyLink);
      await heading(page, 'Confirm your email address');
      await page.getByRole('button', { name: 'Confirm my address' }).waitFor();
      expect((await user()).email_verified_at).toBeNull();
      expect(emailVerifications()).toBe(0);
      await shot('verify-before-press');
      await page.getByRole('button', { name: 'Confirm my address' }).click();
      await heading(page, 'Your address is confirmed');
      expect(emailVerifications()).toBe(1);
      expect((await user()).email_verified_at).not.toBeNull();
      await shot('verify-confirmed');

      // Sign in with the button while the passkey-autofill request is pending (conditional mediation).
      // Chromium answers an autofill request at once when the device holds a passkey and gives presence
      // by itself; without presence the request waits, as it does for a person who has not picked a passkey.
      const savedA = await device.detach();
      await device.reattach(savedA, { presence: false });
      await page.getByRole('link', { name: 'Sign in', exact: true }).last().click();
      await heading(page, 'Sign in');
      const autofillField = page.getByLabel('Email address');
      await autofillField.waitFor();
      expect(await autofillField.getAttribute('autocomplete')).toBe('username webauthn');
      await autofillPending(page);
      await device.setPresence(true);
      expect(verifications()).toBe(0);
      await shot('sign-in');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(`${server.origin}/devices`);
      await heading(page, 'Your passkeys');
      await expect.poll(() => passkeyItems(page).count()).toBe(1);
      const onlyOne = passkeyItems(page).first();
      expect(await onlyOne.innerText()).toMatch(/This device\b[\s\S]*This device only/);
      expect(await onlyOne.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      expect(await page.locator('main').innerText()).toContain('This is your only passkey, so it cannot be deleted');
      await shot('devices-one-passkey');
      // The modal request aborted the pending autofill one and signed in.
      expect((await webAuthnCalls(page)).filter((call) => call.kind === 'get')).toEqual([
        { kind: 'get', mediation: 'conditional', state: 'rejected:AbortError' },
        { kind: 'get', mediation: 'optional', state: 'resolved' },
      ]);
      expect(verifications()).toBe(1);

      // A second device: device A is unplugged (its credentials kept), device B is plugged in and added.
      await device.detach();
      await device.reattach();
      await page.getByRole('button', { name: 'Add a passkey on this device' }).click();
      await page.getByText('Passkey added: Unnamed passkey.').waitFor();
      await expect.poll(() => passkeyItems(page).count()).toBe(2);
      const [deviceB] = await device.credentials();
      expect(await passkeyIds()).toEqual([base64url(deviceA!.credentialId), base64url(deviceB!.credentialId)].sort());
      await shot('devices-added');
      // Again on the same device: the options exclude its passkey, so the browser refuses (InvalidStateError).
      await page.getByRole('button', { name: 'Add a passkey on this device' }).click();
      await page.getByText('This device already holds a passkey for your account').waitFor();
      expect(await passkeyIds()).toHaveLength(2);
      expect(await device.credentials()).toHaveLength(1);
      expect((await webAuthnCalls(page)).filter((call) => call.kind === 'create').at(-1)).toEqual({
        kind: 'create',
        mediation: 'optional',
        state: 'rejected:InvalidStateError',
      });

      // Rename: an empty name is refused beside the field; then both get names.
      const itemB = page.locator('li.passkey', { hasNot: page.locator('.badge') });
      await itemB.getByRole('button', { name: 'Rename Unnamed passkey' }).click();
      const nameField = itemB.getByLabel('New name for Unnamed passkey');
      await nameField.fill(' ');
      await itemB.getByRole('button', { name: 'Save name' }).click();
      await itemB.getByText('Give the passkey a name').waitFor();
      expect(await nameField.getAttribute('aria-invalid')).toBe('true');
      await shot('rename-error');
      await nameField.fill('Laptop');
      await itemB.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('listitem', { name: 'Laptop' }).waitFor();
      // Focus goes back to the button that opened the form, not to the top of the page.
      await expect
        .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')"))
        .toBe('Rename Laptop');
      await page.getByRole('button', { name: 'Rename Unnamed passkey' }).click();
      await page.getByLabel('New name for Unnamed passkey').fill('Phone');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('listitem', { name: 'Phone' }).waitFor();
      expect((await db().selectFrom('passkey_credentials').select('device_label').orderBy('device_label').execute()).map((row) => row.device_label)).toEqual([
        'Laptop',
        'Phone',
      ]);
      await shot('renamed');

      // Sign out, then sign in with device B using the keyboard only (autofill pending, as above).
      await device.setPresence(false);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading(page, 'Sign in');
      await autofillPending(page);
      await device.setPresence(true);
      const button = page.getByRole('button', { name: 'Sign in with a passkey' });
      const focused = () => button.evaluate((element) => element === element.ownerDocument.activeElement);
      for (let presses = 0; presses < 10 && !(await focused()); presses += 1) await page.keyboard.press('Tab');
      expect(await focused()).toBe(true);
      await shot('keyboard-focus-on-sign-in');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.origin}/devices`);
      await page.getByRole('listitem', { name: 'Laptop' }).getByText('This device', { exact: true }).waitFor();
      await shot('signed-in-with-b');

      // Step-up: a day after the last passkey use, the session refresh asks for the passkey again.
      const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
      await db().updateTable('sessions').set({ last_verified_at: dayAgo }).where('revoked_at', 'is', null).execute();
      await page.reload();
      const stepUp = page.getByRole('dialog', { name: /Confirm it.s you/ });
      await stepUp.waitFor();
      await shot('step-up-dialog');
      await stepUp.getByRole('button', { name: 'Confirm with passkey' }).click();
      await stepUp.waitFor({ state: 'hidden' });
      const [openSession] = await db().selectFrom('sessions').select('last_verified_at').where('revoked_at', 'is', null).execute();
      expect(Date.parse(openSession!.last_verified_at)).toBeGreaterThan(Date.now() - 60_000);
      // The one refusal the browser logs here is the expected 403 step_up_required.
      expect(browser.errors).toEqual(['console: Failed to load resource: the server responded with a status of 403 (Forbidden)']);

      // Delete device A's passkey. A security key holding A's passkey is plugged in beside device B:
      // the page's signalAllAcceptedCredentials([B]) lets Chromium remove A's passkey from it.
      const securityKey = await VirtualAuthenticator.attach(page, savedA, { transport: 'usb' });
      await page.getByRole('button', { name: 'Delete Phone' }).click();
      await page.getByText('Delete Phone?').waitFor();
      await shot('delete-confirm');
      await page.getByRole('button', { name: 'Delete passkey' }).click();
      await page.getByText('Phone was deleted. It can no longer sign in.').waitFor();
      await expect.poll(() => passkeyItems(page).count()).toBe(1);
      expect(await passkeyIds()).toEqual([base64url(deviceB!.credentialId)]);
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      expect(await page.locator('main').innerText()).toContain('This is your only passkey, so it cannot be deleted');
      const allAccepted = await securityKey.waitForDeleted(deviceA!.credentialId);
      expect(allAccepted.authenticatorId).toBe(securityKey.authenticatorId);
      expect(await securityKey.detach()).toEqual([]);
      expect((await device.credentials()).map((credential) => credential.credentialId)).toEqual([deviceB!.credentialId]);
      await shot('deleted');

      // The passkeys page at 375 px: no sideways scrolling.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByRole('listitem', { name: 'Laptop' }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await shot('devices-375px');
      await page.setViewportSize({ width: 1280, height: 900 });

      // Recovery by email (as if device B were lost too), registering the new passkey on device B.
      // Without presence, B does not answer the sign-in page's autofill request on its own.
      await device.setPresence(false);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading(page, 'Sign in');
      await autofillPending(page);
      expect(await db().selectFrom('sessions').select('id').where('revoked_at', 'is', null).execute()).toHaveLength(0);
      await page.getByRole('link', { name: 'Recover your account by email' }).click();
      await heading(page, 'Recover your account');
      await page.getByLabel('Email address of your account').fill(EMAIL);
      const mailsBefore = server.smtp.received.length;
      await page.getByRole('button', { name: 'Send me a recovery link' }).click();
      await page.getByText(`If an account exists for ${EMAIL}, a recovery link is on its way. It works for 15 minutes.`).waitFor();
      await shot('recovery-asked');
      const recovery = await server.mailTo(EMAIL, /^Recover access/, { after: mailsBefore });
      const recoverLink = server.linkIn(recovery);
      expect(recoverLink.startsWith(`${server.origin}/recover?token=`)).toBe(true);
      await page.goto(recoverLink);
      await heading(page, 'Recover your account');
      await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor();
      await device.setPresence(true);
      const warning = await page.locator('main').innerText();
      expect(warning).toContain('every passkey your account has now is revoked');
      expect(warning).toContain('every device that is signed in is signed out');
      expect(warning).toContain('trading is paused for 72 hours');
      expect(await passkeyIds()).toEqual([base64url(deviceB!.credentialId)]);
      await shot('recovery-warning');
      const savedB = await device.credentials();
      await page.getByRole('button', { name: 'Make a new passkey and revoke the old ones' }).click();
      await heading(page, 'Your account is recovered');
      const done = await page.locator('main').innerText();
      expect(done).toContain('Every earlier passkey of your account was revoked');
      expect(done).toContain('Trading is paused for 72 hours');
      await shot('recovered');
      const recovered = await user();
      const cooldownHours = (Date.parse(recovered.trade_cooldown_until!) - Date.now()) / 3_600_000;
      expect(cooldownHours).toBeGreaterThan(71.9);
      expect(cooldownHours).toBeLessThanOrEqual(72);
      const [newPasskey] = await passkeyIds();
      expect(await passkeyIds()).toHaveLength(1);
      expect(newPasskey).not.toBe(base64url(deviceB!.credentialId));
      expect(await db().selectFrom('audit_entries').select('id').where('action', '=', 'user.credentials_reset').execute()).toHaveLength(1);
      await server.mailTo(EMAIL, /passkeys were reset/);
      // Device B now holds the new passkey only (Chromium's authenticator replaced the old one of the same account).
      expect((await device.credentials()).map((credential) => base64url(credential.credentialId))).toEqual([newPasskey]);

      // A security key still holding B's old passkey: the passkeys page tells the browser the full list
      // (signalAllAcceptedCredentials on each load), and Chromium removes the old passkey from the key.
      const oldKey = await VirtualAuthenticator.attach(page, savedB, { transport: 'usb' });
      await page.getByRole('link', { name: 'See your passkeys' }).click();
      await heading(page, 'Your passkeys');
      await oldKey.waitForDeleted(deviceB!.credentialId);
      expect(await oldKey.detach()).toEqual([]);
      await shot('devices-after-recovery');

      // Passkey autofill on its own: signed out with device B at hand, Chromium answers the autofill request.
      const signInsBefore = verifications();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(verifications).toBe(signInsBefore + 1);
      await page.waitForURL(`${server.origin}/devices`);
      await page.getByRole('listitem', { name: 'Unnamed passkey' }).getByText('This device', { exact: true }).waitFor();
      expect((await webAuthnCalls(page)).at(-1)).toEqual({ kind: 'get', mediation: 'conditional', state: 'resolved' });
      expect(await db().selectFrom('sessions').select('id').where('revoked_at', 'is', null).execute()).toHaveLength(1);
      // Nothing of the session or the mail links in script-readable storage.
      expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
      // The session is a cookie scripts cannot read, and that other sites' requests do not carry.
      const [sessionCookie] = (await browser.context.cookies(server.origin)).filter((cookie) => cookie.name === 'service_session');
      expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(await page.evaluate('document.cookie')).toBe('');
      await shot('signed-in-by-autofill');

      // The old device A (its saved credentials, as if it had been offline all along) is refused by name.
      await device.detach();
      await device.reattach(savedA, { presence: false });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading(page, 'Sign in');
      await autofillPending(page);
      await device.setPresence(true);
      expect(browser.errors).toHaveLength(1);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByText('We do not know this passkey').waitFor();
      expect(await page.getByRole('alert').innerText()).toContain('deleted from its account');
      await shot('old-device-refused');
      // signalUnknownCredential: Chromium removes the passkey from the virtual authenticator.
      await device.waitForDeleted(deviceA!.credentialId);
      expect(await device.credentials()).toEqual([]);
      expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
      expect(browser.errors).toEqual([
        'console: Failed to load resource: the server responded with a status of 403 (Forbidden)',
        'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
      ]);
    }, 180_000);
  });
}
