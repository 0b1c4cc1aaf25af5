import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeYahoo, YAHOO_SEARCH_PATH, yahooChart, yahooDay, yahooSearch } from '../market/fake-yahoo.js';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** "15:42" in this machine's time zone, which Chromium shares: how the Trade page writes a delayed price's time. */
const clockTime = (instant: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(instant));

describeInBrowser('the Trade page with fresh prices (Chromium, the fake Yahoo)', () => {
  let server: WebServer;
  let browser: BrowserSession;
  let yahoo: Awaited<ReturnType<typeof startFakeYahoo>>;
  /** The delayed price's time the fake answered last: two minutes before the request. */
  let quotedAt = '';

  beforeAll(async () => {
    rmSync('test-output/browser/trade-prices', { recursive: true, force: true });
    yahoo = await startFakeYahoo();
    // ACME, a ticker the store lacks (offered by the search): three past sessions, and a delayed price two minutes old at each request.
    yahoo.answer((request) => {
      if (request.path === YAHOO_SEARCH_PATH) return { status: 200, body: yahooSearch([{ symbol: 'ACME', name: 'Acme Corporation' }]) };
      const now = Date.now();
      quotedAt = new Date(Math.floor((now - 2 * 60_000) / 1000) * 1000).toISOString();
      const days = [5, 4, 3].map((back) => yahooDay(isoDay(now - back * DAY_MS), 100));
      return { status: 200, body: yahooChart('ACME', days, new Date(now).toISOString(), { price: 101.37, at: quotedAt }) };
    });
    server = await startWebServer({ env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: yahoo.url } });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await yahoo?.close();
  });

  const orders = () => server.app.platform.db.selectFrom('orders').selectAll().orderBy('created_at').execute();
  const price = (page: Page) => page.locator('.ticket-price [aria-live]');

  it('shows the fill price, its time and source and the cost before the order; says how each fill was priced; closes a position in one confirmed action', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'trade-prices');
    await signUpAndSignIn(page, server, 'pia@example.com', '/trade');
    await page.getByRole('heading', { level: 1, name: 'Trade' }).waitFor();
    await price(page).getByText('The price the order fills at appears when you enter a symbol.').waitFor();

    // A ticker not stored: fetched from the provider, priced at its delayed price, with the cost and cash after.
    await page.getByLabel('Symbol').pressSequentially('acme');
    await page.getByLabel('Quantity').fill('3');
    await price(page).getByText(/^Fills at \$101\.37 at \d\d:\d\d \(delayed, Yahoo Finance\)\.$/).waitFor();
    expect(await price(page).locator('p').first().innerText()).toBe(`Fills at $101.37 at ${clockTime(quotedAt)} (delayed, Yahoo Finance).`);
    await price(page).getByText('Estimated cost: 3 × $101.37 = $304.11. Cash available after: $99,695.89.').waitFor();
    await shot('delayed-price-before-order');
    await page.getByRole('button', { name: 'Place buy order' }).click();
    await page.getByText(/^Bought 3 ACME at \$101\.37, filled at \d\d:\d\d \(delayed\)\.$/).waitFor();
    const [buy] = await orders();
    expect(buy).toMatchObject({ symbol: 'ACME', side: 'buy', qty: 3, status: 'filled', fill_price: 101.37, fill_source: 'delayed_quote' });
    await page.getByText(`Bought 3 ACME at $101.37, filled at ${clockTime(buy!.price_at!)} (delayed).`).waitFor();
    await page.locator('.orders-table').getByText(`filled at ${clockTime(buy!.price_at!)} (delayed)`).waitFor();

    // The demo SPX is priced at its stored close, and says so.
    await page.getByLabel('Symbol').fill('');
    await page.getByLabel('Symbol').pressSequentially('spx');
    await page.getByLabel('Quantity').fill('1');
    await price(page).getByText(/^Fills at \$[\d,]+\.\d\d, the close of 2020-04-17\.$/).waitFor();
    await page.getByRole('button', { name: 'Place buy order' }).click();
    await page.getByText(/^Bought 1 SPX at \$[\d,]+\.\d\d, filled at the close of 2020-04-17\.$/).waitFor();
    await page.locator('.orders-table').getByText('filled at the close of 2020-04-17').waitFor();
    await shot('fills-in-words');

    // Close the ACME position: asked first, then a market sell of all 3 through the order route.
    await page.getByRole('button', { name: 'Close… the ACME position' }).click();
    const question = page.getByRole('group', { name: 'Close the ACME position?' });
    await question.getByText(/Sell all 3 ACME at the market price\?/).waitFor();
    await shot('close-position-question');
    await question.getByRole('button', { name: 'Sell 3 ACME' }).click();
    await page.getByText(/^Closed the ACME position\. Sold 3 ACME at \$101\.37, filled at \d\d:\d\d \(delayed\)\.$/).waitFor();
    await expect.poll(async () => (await page.locator('.positions-table tbody th').allInnerTexts()).join(',')).toBe('SPX');
    const sell = (await orders()).at(-1)!;
    expect(sell).toMatchObject({ symbol: 'ACME', side: 'sell', qty: 3, order_type: 'market', status: 'filled', fill_source: 'delayed_quote' });
    expect(sell.client_order_id).toMatch(/^[0-9a-f-]{32,36}$/);
    // Cash: −304.11 − the SPX close + 304.11 back.
    const account = await server.app.platform.db.selectFrom('paper_accounts').select('cash_cents').executeTakeFirstOrThrow();
    const spx = (await orders()).find((order) => order.symbol === 'SPX')!;
    expect(Number(account.cash_cents)).toBe(10_000_000 - Math.round(Number(spx.fill_price) * 100));
    await shot('position-closed');
    expect(browser.errors).toEqual([]);
  }, 120_000);
});
