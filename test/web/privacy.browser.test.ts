import { readFileSync, rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { UNLABELLED_CONTROLS } from './rig/controls.js';
import { startWebServer, type WebServer } from './rig/server.js';
import { recordWebAuthnCalls, webAuthnCalls } from './rig/webauthn-calls.js';

const EMAIL = 'pia@example.com';
const NEW_EMAIL = 'pia.new@example.com';

describeInBrowser('the Privacy and data page in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    rmSync('test-output/browser/privacy', { recursive: true, force: true });
    server = await startWebServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const db = () => server.app.platform.db;
  const user = () => db().selectFrom('users').selectAll().executeTakeFirstOrThrow();
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  /** Waits until the sign-in page's passkey-autofill request is waiting (the device gives no presence). */
  const autofillPendingAgain = (page: Page) =>
    expect.poll(async () => (await webAuthnCalls(page)).filter((call) => call.mediation === 'conditional' && call.state === 'pending').length).toBe(1);

  it('exports and downloads the data, renames, changes the address through the mailed link, deletes the account with the passkey', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'privacy');
    await recordWebAuthnCalls(page);
    const device = await signUpAndSignIn(page, server, EMAIL, '/privacy');
    await heading(page, 'Privacy and data');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Privacy' }).getAttribute('aria-current')).toBe('page');

    // The retention table, from the server's constants.
    const retention = page.locator('.retention-table tbody tr');
    await retention.first().waitFor();
    expect(await retention.count()).toBeGreaterThan(1);
    expect(await page.locator('.retention-table').innerText()).toMatch(/2 years/);
    await page.getByText('You have no exports yet.').waitFor();
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);
    await shot('privacy-page');
    // A phone: nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await shot('privacy-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Export: queued, built by the job worker, then a zip to download and a mail saying it is ready.
    const mailsBefore = server.smtp.received.length;
    await page.getByRole('button', { name: 'Prepare my data' }).click();
    expect(await page.locator('.privacy__part').first().innerText()).toContain(`we mail you at ${EMAIL} when it is ready`);
    const download = page.getByRole('link', { name: /^Download zip/ });
    await download.waitFor({ timeout: 20_000 });
    await page.getByText(/Available until/).waitFor();
    await page.getByText('Your data is ready: download the zip below.').waitFor();
    await shot('export-ready');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(bytes.includes(Buffer.from('README.txt'))).toBe(true);
    const ready = await server.mailTo(EMAIL, /./, { after: mailsBefore });
    expect(server.linkIn(ready)).toContain(server.origin);

    // Rename: at once.
    await page.getByLabel('Display name').fill('Pia Q');
    await page.getByRole('button', { name: 'Save display name' }).click();
    await page.getByText('Saved: your display name is now “Pia Q”.').waitFor();
    expect((await user()).display_name).toBe('Pia Q');

    // Change the address: the passkey, then the link mailed to the new address; the old one is told.
    const beforeChange = server.smtp.received.length;
    await page.getByLabel('New email address').fill(NEW_EMAIL);
    await page.getByRole('button', { name: 'Change email address' }).click();
    await page.getByText(`We mailed a link to ${NEW_EMAIL}`).waitFor();
    await page.getByText(`Waiting for you to confirm ${NEW_EMAIL}`).waitFor();
    expect((await user()).email).toBe(EMAIL);
    await shot('email-change-pending');
    const link = server.linkIn(await server.mailTo(NEW_EMAIL, /./, { after: beforeChange }));
    await server.mailTo(EMAIL, /./, { after: beforeChange });
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await heading(page, 'Your address is confirmed');
    await page.getByText(`Your account uses ${NEW_EMAIL}.`).waitFor();
    expect((await user()).email).toBe(NEW_EMAIL);
    await shot('email-changed');
    await page.getByRole('link', { name: 'Back to Privacy and data' }).click();
    await heading(page, 'Privacy and data');
    await page.getByText(`Your email address is ${NEW_EMAIL}.`).waitFor();

    // Delete the account: what happens, the question, the passkey; then signed out with a clear message.
    expect(await page.locator('.privacy__erase').innerText()).toMatch(/30 days[\s\S]*2 years/);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('group', { name: 'Delete your account?' }).waitFor();
    await shot('erase-question');
    await page.getByRole('button', { name: 'Delete my account with my passkey' }).click();
    await heading(page, 'Your account is deleted');
    await page.getByText('you are signed out on every device').waitFor();
    await page.getByText('A notice with these dates is on its way to your email address.').waitFor();
    const notices = await db().selectFrom('mail_outbox').select('subject').where('to_address', '=', NEW_EMAIL).execute();
    expect(notices.map((mail) => mail.subject)).toContain('Your tradelab account has been erased');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).waitFor();
    await shot('erased');
    expect((await user()).deleted_at).not.toBeNull();
    expect(await db().selectFrom('sessions').select('id').where('revoked_at', 'is', null).execute()).toEqual([]);
    expect(browser.errors).toEqual([]);

    // Sign-in with the same passkey is refused (autofill held back, then the button, as in the accounts test).
    await device.detach().then((saved) => device.reattach(saved, { presence: false }));
    await page.goto(`${server.origin}/sign-in`);
    await heading(page, 'Sign in');
    await autofillPendingAgain(page);
    await device.setPresence(true);
    // The page offers autofill again after a refusal; a virtual device that answers by itself would keep
    // offering the refused passkey (a person picks one), so presence goes off before the page hears the answer.
    const verifications: number[] = [];
    await page.route('**/api/auth/login/verify', async (route) => {
      const response = await route.fetch();
      verifications.push(response.status());
      await device.setPresence(false);
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('That passkey could not be verified.').waitFor();
    await autofillPendingAgain(page);
    await page.unroute('**/api/auth/login/verify');
    expect(verifications).toEqual([401]);
    await shot('sign-in-refused');
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(browser.errors).toEqual(['console: Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
  }, 180_000);
});
