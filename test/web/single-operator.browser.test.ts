import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATOR_EMAIL } from '../../src/auth/operator.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';

const STRATEGY = 'Operator SPX';
const NOTE = 'Single-operator mode (AUTH_V1=off): no accounts; you act as the local operator.';
/** The pages of accounts, data rights and admin: their API answers 404 under AUTH_V1=off. */
const ACCOUNT_PAGES = /^\/(sign-up|sign-in|check-inbox|verify-email|devices|recover|privacy|admin)(\/|\?|$)/;

describeInBrowser('the web app under AUTH_V1=off (the single-operator tool) in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    rmSync('test-output/browser/single-operator', { recursive: true, force: true });
    server = await startWebServer({ authV1: 'off' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  /** Every in-app link on the page that leads to a page of accounts. */
  const accountLinks = async (page: Page) =>
    (await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))).filter((href) => ACCOUNT_PAGES.test(href));

  it('shows the operator note and no account links; the library, a backtest and a paper order work for the local operator', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'single-operator');
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
    });

    // The lab: the note instead of sign-in links; Library and Trade in the nav.
    await page.goto(`${server.origin}/`);
    await page.getByText(NOTE).waitFor();
    expect(await nav(page).getByRole('link').allInnerTexts()).toEqual(['Lab', 'Compare', 'Optimize', 'Library', 'Trade']);
    expect(await nav(page).getByRole('button').count()).toBe(0);
    expect(await accountLinks(page)).toEqual([]);
    await shot('lab');

    // A strategy in the library.
    await nav(page).getByRole('link', { name: 'Library' }).click();
    await heading(page, 'Strategy library');
    await page.getByText('Your library is empty').waitFor();
    expect(await accountLinks(page)).toEqual([]);
    await page.getByRole('link', { name: 'New strategy' }).click();
    await heading(page, 'New strategy');
    await page.getByLabel('Name').fill(STRATEGY);
    await page.getByLabel('Allowed symbols').pressSequentially('spx');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await page.getByText(`Created “${STRATEGY}”.`).waitFor();
    const item = page.getByRole('list', { name: 'Your strategies' }).getByRole('listitem', { name: STRATEGY });
    await item.waitFor();
    const operator = await server.app.platform.db.selectFrom('users').select('id').where('email', '=', OPERATOR_EMAIL).executeTakeFirstOrThrow();
    const [stored] = await server.app.platform.db.selectFrom('strategies').selectAll().execute();
    expect(stored).toMatchObject({ name: STRATEGY, user_id: operator.id, entry_symbol_allowlist: 'SPX' });
    await shot('library');

    // Its backtest.
    await item.getByRole('link', { name: `Backtest ${STRATEGY}` }).click();
    await heading(page, 'Backtest a strategy');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.getByText(/^Trades \(\d[\d,]* round trips/).waitFor();
    await shot('backtest');

    // A paper order with it.
    await page.getByRole('link', { name: 'Back to your library' }).click();
    await item.getByRole('link', { name: `Trade this strategy ${STRATEGY}` }).click();
    await heading(page, 'Trade');
    await expect.poll(() => page.getByLabel('Strategy').inputValue()).toBe(String(stored!.id));
    await page.getByLabel('Symbol').pressSequentially('spx');
    await page.getByLabel('Quantity').fill('10');
    await page.locator('.ticket-verdict [aria-live]').getByText(`Compliant. The order meets every rule of “${STRATEGY}”.`).waitFor();
    await page.getByRole('button', { name: 'Place buy order' }).click();
    await page.getByText(/^Bought 10 SPX at \$[\d,]+\.\d\d, filled at the close of 2020-04-17\.$/).waitFor();
    await page.locator('.orders-table tbody tr').first().getByText('Filled', { exact: true }).waitFor();
    const orders = await server.app.platform.db.selectFrom('orders').selectAll().execute();
    expect(orders).toEqual([expect.objectContaining({ user_id: operator.id, status: 'filled', qty: 10, strategy_id: stored!.id })]);
    expect(await accountLinks(page)).toEqual([]);
    await shot('trade');

    // An account page opened by its address says why it does not apply, and links nowhere that 404s.
    for (const path of ['/privacy', '/sign-in', '/admin/users']) {
      await page.goto(`${server.origin}${path}`);
      await heading(page, 'Not available in single-operator mode');
      await page.getByText('There are no accounts on this server').waitFor();
      expect(await accountLinks(page), path).toEqual([]);
    }
    await shot('privacy');

    // Never asked for a session or any other account route; no console error (a 404 would log one).
    expect(apiCalls.filter((path) => /^\/api\/(auth|gdpr|admin)(\/|$)/.test(path))).toEqual([]);
    expect(browser.errors).toEqual([]);
  }, 120_000);
});
