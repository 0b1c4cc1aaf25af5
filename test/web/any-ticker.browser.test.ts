import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';
import { startFakeYahoo, yahooDay, yahooKnowing } from '../market/fake-yahoo.js';

/** Weekdays from 2025-09-01 to 2025-12-31, the close wandering up and down around 200. */
const AAPL_DAYS = Array.from({ length: 122 }, (_, i) => new Date(Date.UTC(2025, 8, 1 + i)).toISOString().slice(0, 10))
  .filter((date) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))
  .map((date, i) => yahooDay(date, 200 + 10 * Math.sin(i / 6) + i / 10));

describeInBrowser('any ticker, through the local fake Yahoo Finance, in Chromium', () => {
  let server: WebServer;
  let fake: Awaited<ReturnType<typeof startFakeYahoo>>;
  let browser: BrowserSession;

  beforeAll(async () => {
    rmSync('test-output/browser/any-ticker', { recursive: true, force: true });
    fake = await startFakeYahoo();
    fake.answer(yahooKnowing({ AAPL: AAPL_DAYS }, [{ symbol: 'AAPL', name: 'Apple Inc.' }, { symbol: 'AAPB', name: 'GraniteShares 2x Long AAPL Daily ETF', quoteType: 'ETF' }]));
    server = await startWebServer({ env: { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url, YAHOO_TIMEOUT_MS: '5000' } });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  const charts = () => fake.seen.filter((request) => request.path.startsWith('/v8/finance/chart/')).map((request) => request.path);

  it('types a ticker that is not stored, backtests it (fetched from the provider), sees where the data ends, and places a paper order on it', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'any-ticker');
    await page.goto(`${server.origin}/`);
    await page.getByRole('heading', { name: 'Backtest lab', level: 1 }).waitFor();
    const symbol = page.getByLabel('Symbol');
    const status = page.locator('.symbol-status');
    await status.getByText('SPX, demo data, 2000-01-03 to 2020-04-17').waitFor();
    // The status is part of the field's description.
    expect(await symbol.getAttribute('aria-describedby')).toContain(await status.getAttribute('id'));

    // A ticker the store lacks: offered by the provider's search, and said to be fetched when run.
    await symbol.fill('AAPL');
    await status.getByText('AAPL, not stored yet: fetched from Yahoo Finance when you run').waitFor();
    expect(await page.locator('datalist option[value="AAPL"]').getAttribute('label')).toBe('Apple Inc. (not stored yet)');
    expect(charts()).toEqual([]);
    await shot('not-stored-yet');

    // Backtest it over a period reaching past its last bar: fetched once, and the clipped end said above the results.
    await page.getByLabel('Start date').fill('2025-10-01');
    await page.getByLabel('End date').fill('2026-06-30');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const what = page.locator('.results__what');
    await what.waitFor();
    expect(await what.innerText()).toContain('on AAPL, 2025-10-01 to 2025-12-31');
    await page.locator('.results').getByText('You asked for 2025-10-01 to 2026-06-30; the data ends 2025-12-31.').waitFor();
    expect(charts()).toEqual(['/v8/finance/chart/AAPL']);
    await status.getByText('AAPL, from Yahoo Finance, 2025-09-01 to 2025-12-31').waitFor();
    await shot('backtested-with-clip-notice');

    // The whole stored period asked: no notice.
    await page.getByLabel('End date').fill('2025-12-31');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await expect.poll(async () => (await what.innerText()).includes('2025-10-01 to 2025-12-31') && !(await page.locator('.results').getByText('You asked for').count())).toBe(true);

    // A paper order on it, on the Trade page: filled, on AAPL.
    await signUpAndSignIn(page, server, 'tess@example.com', '/trade');
    await page.getByRole('heading', { level: 1, name: 'Trade' }).waitFor();
    // A ticker not stored is said to fill at the provider's delayed price (the order fetches its bars).
    await page.getByLabel('Symbol').fill('AAPB');
    await page
      .locator('.symbol-status')
      .getByText("AAPB, not stored yet: a market order fills at Yahoo Finance's delayed price and stores its bars")
      .waitFor();
    await page.getByLabel('Symbol').fill('AAPL');
    await page.locator('.symbol-status').getByText('AAPL, from Yahoo Finance, 2025-09-01 to 2025-12-31').waitFor();
    await page.getByLabel('Quantity').fill('5');
    await page.getByRole('button', { name: 'Place buy order' }).click();
    await page.getByText(/^Bought 5 AAPL at \$[\d,]+\.\d\d, filled at the close of \d{4}-\d\d-\d\d\.$/).waitFor();
    await page.locator('.orders-table tbody tr').first().getByText('Filled', { exact: true }).waitFor();
    const orders = await server.app.platform.db.selectFrom('orders').select(['symbol', 'side', 'qty', 'status']).execute();
    expect(orders).toEqual([{ symbol: 'AAPL', side: 'buy', qty: 5, status: 'filled' }]);
    await shot('paper-order-filled');

    // The comparison says where the demo SPX ends, for the period of the example.
    await page.goto(`${server.origin}/compare`);
    await page.getByRole('heading', { name: 'Compare strategies', level: 1 }).waitFor();
    await page.locator('.symbol-status').getByText('SPX, demo data, 2000-01-03 to 2020-04-17').waitFor();
    await page.getByLabel('Start date').fill('2019-01-01');
    await page.getByLabel('End date').fill('2024-12-31');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.locator('.results').getByText('You asked for 2019-01-01 to 2024-12-31; the data ends 2020-04-17.').waitFor();

    // So does a library backtest, naming the symbol whose data clips when there are several.
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/strategies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Both', strategy_type: 'equity_long', entry_symbol_allowlist: 'SPX,AAPL' }),
      });
      return (await response.json()) as { id: number };
    });
    await page.goto(`${server.origin}/library/backtest?id=${created.id}`);
    await page.getByRole('heading', { name: 'Backtest a strategy', level: 1 }).waitFor();
    const statuses = page.locator('#library-symbols-status li');
    await expect.poll(() => statuses.allInnerTexts()).toEqual(['SPX, demo data, 2000-01-03 to 2020-04-17', 'AAPL, from Yahoo Finance, 2025-09-01 to 2025-12-31']);
    await page.getByLabel('Start date').fill('2019-01-01');
    await page.getByLabel('End date').fill('2025-12-31');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('.results').getByText("You asked for 2019-01-01 to 2025-12-31; AAPL's data starts 2025-09-01; SPX's data ends 2020-04-17.").waitFor();
    await shot('library-clip-notice');
    expect(browser.errors).toEqual([]);
  }, 90_000);
});
