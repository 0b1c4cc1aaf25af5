import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setAdminRole } from '../../src/admin/admin.service.js';
import { appendAudit } from '../../src/platform/audit/audit.js';
import { systemClock } from '../../src/platform/clock.js';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';
import { recordWebAuthnCalls, webAuthnCalls } from './rig/webauthn-calls.js';

const EMAIL = 'ada-admin@example.com';

describeInBrowser('the admin area in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;
  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('shows the admin pages only once the CLI’s grant made the account an admin; audit search records itself; breach notify asks for the passkey', async () => {
    const { page } = browser;
    await recordWebAuthnCalls(page);
    await signUpAndSignIn(page, server, EMAIL, '/');
    await mainNav(page).getByRole('link', { name: 'Passkeys' }).waitFor();
    expect(await mainNav(page).getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // `tradelab admin grant` calls this service on the server.
    await setAdminRole(server.app.platform.db, systemClock, EMAIL, true);
    await page.reload();
    await mainNav(page).getByRole('link', { name: 'Admin' }).click();
    await heading(page, 'Users');
    await page.getByRole('cell', { name: EMAIL }).waitFor();

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
    await heading(page, 'Audit log');
    await page.getByLabel('Action').fill('admin.audit_read');
    await page.getByRole('button', { name: 'Search the log' }).click();
    // The page's first (unfiltered) read is in the log the search returns, with its query.
    await page.getByRole('caption').filter({ hasText: /^2 entries/ }).waitFor();
    const rows = page.locator('.audit-table tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toContain('admin.audit_read');
    expect(await rows.nth(0).innerText()).toContain('"action":"admin.audit_read"');

    // Paging: 60 entries of one action are two pages; the search is kept from page to page.
    for (let at = 0; at < 60; at += 1) await appendAudit(server.app.platform.db, systemClock, { actorUserId: null, action: 'test.paging', context: { at } });
    const caption = page.getByRole('caption');
    const pager = page.getByRole('navigation', { name: 'Pages of the audit log' });
    await page.getByLabel('Action').fill('test.paging');
    await page.getByRole('button', { name: 'Search the log' }).click();
    await caption.filter({ hasText: /^1–50 of 60 entries/ }).waitFor();
    expect(await rows.count()).toBe(50);
    expect(await pager.getByRole('button', { name: /Previous/ }).count()).toBe(0);
    await page.getByLabel('Action').fill('typed but not searched');
    await pager.getByRole('button', { name: 'Next 10 →' }).click();
    await caption.filter({ hasText: /^51–60 of 60 entries/ }).waitFor();
    expect(await rows.count()).toBe(10);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('test.paging');
    expect(await rows.nth(9).innerText()).toContain('{"at":0}');
    await pager.getByRole('button', { name: '← Previous 50' }).click();
    await caption.filter({ hasText: /^1–50 of 60 entries/ }).waitFor();
    expect(await rows.nth(0).innerText()).toContain('{"at":59}');
    await pager.getByRole('button', { name: 'Next 10 →' }).click();
    await caption.filter({ hasText: /^51–60 of 60 entries/ }).waitFor();
    // A new search starts at its first page: the reads so far (page load, two searches, three page turns) and this one.
    await page.getByLabel('Action').fill('admin.audit_read');
    await page.getByRole('button', { name: 'Search the log' }).click();
    await caption.filter({ hasText: /^7 entries/ }).waitFor();
    expect(await rows.count()).toBe(7);
    expect(await pager.count()).toBe(0);
    expect(await rows.nth(0).innerText()).toContain('"offset":0');
    expect(await rows.nth(1).innerText()).toContain('"offset":50');
    expect(await rows.nth(1).innerText()).toContain('"action":"test.paging"');

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Incidents' }).click();
    await heading(page, 'Breach incidents');
    await page.getByText('No incident has been recorded.').waitFor();
    await page.getByLabel('What happened, and which data (goes into the mail)').fill('A backup with email addresses was readable by anyone for a day.');
    await page.getByLabel('Severity').selectOption('high');

    // Named accounts: checked as ids before the passkey prompt; an id the server does not know is named by the field.
    await page.getByRole('radio', { name: 'These accounts' }).check();
    const ids = page.getByLabel('Account ids');
    await ids.fill('ada-admin@example.com');
    const beforeIds = (await webAuthnCalls(page)).length;
    await page.getByRole('button', { name: 'Confirm with passkey and notify these accounts' }).click();
    await page.getByText('This is not an account id: “ada-admin@example.com”.', { exact: false }).waitFor();
    expect(await ids.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    expect(await ids.getAttribute('aria-invalid')).toBe('true');
    expect((await webAuthnCalls(page)).length).toBe(beforeIds);
    const stranger = '3f2b8c1e-9d4a-4b7e-8c2f-1a5d6e7f8a9b';
    await ids.fill(`${stranger}\n`);
    await page.getByRole('button', { name: 'Confirm with passkey and notify these accounts' }).click();
    await page.getByText(`No account has this id: ${stranger}. Nothing was sent.`).waitFor();
    expect((await webAuthnCalls(page)).slice(beforeIds)).toEqual([{ kind: 'get', mediation: 'optional', state: 'resolved' }]);
    await page.getByText('No incident has been recorded.').waitFor();

    await page.getByRole('radio', { name: 'Everyone' }).check();
    expect(await ids.count()).toBe(0);
    const before = (await webAuthnCalls(page)).length;
    await page.getByRole('button', { name: 'Confirm with passkey and notify everyone' }).click();
    await page.getByText(/Incident recorded: affected people are being mailed/).waitFor();
    const prompts = (await webAuthnCalls(page)).slice(before);
    expect(prompts).toEqual([{ kind: 'get', mediation: 'optional', state: 'resolved' }]);

    const mail = await server.mailTo(EMAIL, /security incident/);
    expect(mail.mail.text).toContain('A backup with email addresses was readable');
    for (let tries = 0; tries < 60; tries += 1) {
      await page.getByRole('button', { name: 'Refresh progress' }).click();
      if (await page.getByRole('cell', { name: 'notified', exact: true }).count()) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await page.getByRole('cell', { name: 'notified', exact: true }).waitFor({ timeout: 1000 });
    await page.getByRole('cell', { name: '1 of 1' }).waitFor();

    // The runbook after the mailing: the authority's notice, then the close, each with a note; no passkey asked.
    const promptsBeforeSteps = (await webAuthnCalls(page)).length;
    await page.getByText('Steps (0)').click();
    const stepForm = page.getByRole('form', { name: /^Record a step of “A backup with email addresses/ });
    await stepForm.getByLabel('Step').selectOption('authority_notified');
    await stepForm.getByLabel('Note').fill('Told the authority by its web form, case 2026-117.');
    await stepForm.getByRole('button', { name: 'Record step' }).click();
    await page.getByText(/^Authority notified recorded for/).waitFor();
    await page.getByText('Steps (1)').waitFor();
    expect(await stepForm.getByLabel('Step').locator('option').allInnerTexts()).toEqual(['Note', 'Close the incident']);
    await stepForm.getByLabel('Step').selectOption('closed');
    await stepForm.getByLabel('Note').fill('Backup removed; post-mortem written.');
    await stepForm.getByRole('button', { name: 'Record step' }).click();
    await page.getByRole('cell', { name: 'closed', exact: true }).waitFor();
    await page.getByText('Steps (2)').waitFor();
    await page.getByText('Told the authority by its web form, case 2026-117.').waitFor();
    expect((await webAuthnCalls(page)).length).toBe(promptsBeforeSteps);

    // A low-severity incident recorded without mailing anyone.
    await page.getByLabel('What happened, and which data (goes into the mail)').fill('A debug log showed one strategy name to its own owner.');
    await page.getByLabel('Severity').selectOption('low');
    await page.getByRole('checkbox', { name: /Record only, mail nobody/ }).check();
    await page.getByRole('button', { name: 'Confirm with passkey and record without mailing' }).click();
    await page.getByText(/Incident recorded: nobody is mailed \(recorded only\)/).waitFor();
    await page.getByRole('cell', { name: 'open', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Mail affected people' }).waitFor();
  }, 120_000);
});
