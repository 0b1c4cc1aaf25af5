import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { UNLABELLED_CONTROLS } from './rig/controls.js';
import { expectFieldError, failedLoad } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

const MODELED_NOTE = 'Modeled prices: Black–Scholes, volatility = realized 20-day, half of a modeled spread paid per fill — not market quotes.';
const EXIT_WORDS = ['Stop loss', 'Profit target', 'Days to expiry at the limit', 'Exit rule', 'Held to expiry', 'End of period'];

describeInBrowser('options strategies in the library backtest (modeled prices), in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    rmSync('test-output/browser/options-backtest', { recursive: true, force: true });
    server = await startWebServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const item = (page: Page, name: string) => page.getByRole('list', { name: 'Your strategies' }).getByRole('listitem', { name });

  it('creates an iron condor with its options spec, backtests it on SPX and shows a trade’s legs under the modeled-prices note', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'options-backtest');
    const posts: string[] = [];
    page.on('request', (request) => void (request.method() === 'POST' && posts.push(new URL(request.url()).pathname)));
    await signUpAndSignIn(page, server, 'olga@example.com', '/library/new');
    await heading(page, 'New strategy');

    // The spec's fieldset appears with an options type; an iron condor has a wing width and no structure.
    await page.getByLabel('Name').fill('SPX condor');
    expect(await page.getByRole('group', { name: 'Options spec' }).count()).toBe(0);
    await page.getByLabel('Strategy type').selectOption({ label: 'Iron condor (options)' });
    const spec = page.getByRole('group', { name: 'Options spec' });
    await spec.waitFor();
    expect(await spec.getByLabel('Structure').count()).toBe(0);
    expect(await spec.getByLabel('Wing width ($)').getAttribute('aria-describedby')).toBeTruthy();
    await page.getByLabel('Allowed symbols').pressSequentially('spx');
    await page.getByLabel('Profit target (%)').fill('50');
    await page.getByLabel('Max days to expiry').fill('7');

    // A spec begun is a spec to finish: the missing boxes say so, and nothing is sent.
    await spec.getByLabel('Days to expiry at entry').fill('45');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await expectFieldError(page, 'Short strike delta', 'Enter the short strike’s delta, such as 0.16.');
    await expectFieldError(page, 'Wing width ($)', 'Enter the width in dollars, such as 5.');
    await expect.poll(() => page.evaluate('document.activeElement.name')).toBe('options_spec.short_delta');
    expect(posts.filter((path) => path === '/api/strategies')).toEqual([]);
    await shot('spec-incomplete');

    await spec.getByLabel('Short strike delta').fill('0.16');
    await spec.getByLabel('Wing width ($)').fill('10');
    await shot('spec-filled');
    const created = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/strategies'));
    await page.getByRole('button', { name: 'Create strategy' }).click();
    expect((await created).postDataJSON()).toMatchObject({ strategy_type: 'iron_condor', options_spec: { short_delta: 0.16, wing_width: 10, dte: 45 } });
    await page.getByText('Created “SPX condor”.').waitFor();
    expect(await item(page, 'SPX condor').innerText()).toContain('short delta 0.16, $10.00 wings, 45 days to expiry');

    // Edit loads the stored spec into the boxes it came from.
    await item(page, 'SPX condor').getByRole('link', { name: 'Edit SPX condor' }).click();
    await heading(page, 'Edit strategy');
    expect(await page.getByLabel('Short strike delta').inputValue()).toBe('0.16');
    expect(await page.getByLabel('Wing width ($)').inputValue()).toBe('10');
    expect(await page.getByLabel('Days to expiry at entry').inputValue()).toBe('45');
    expect(await page.getByRole('radio', { name: 'Delta' }).isChecked()).toBe(true);

    // The backtest on SPX: the modeled-prices note, the positions, and the four legs of one of them.
    await page.getByRole('link', { name: 'Backtest it' }).click();
    await heading(page, 'Backtest a strategy');
    expect(await page.getByLabel('Symbols').inputValue()).toBe('SPX');
    // Only the commission per contract: an options position's size and exits are the strategy's own.
    expect(await page.getByLabel('Position size').count()).toBe(0);
    await page.getByLabel('Commission per contract ($)').fill('0.65');
    const asked = page.waitForRequest('**/api/backtest/run');
    const answered = page.waitForResponse('**/api/backtest/run');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const sent = (await asked).postDataJSON() as Record<string, unknown>;
    expect(sent.costs).toEqual({ commission_per_contract: 0.65 });
    expect(Object.keys(sent)).not.toContain('sizing');
    expect(Object.keys(sent)).not.toContain('exits');
    const answer = (await (await answered).json()) as { trades: { qty: number; commission: number }[]; report: { monthly_returns: { year: number }[] } };
    await page.getByText(MODELED_NOTE).waitFor();
    await page.getByText('Commission: $0.65 per contract and leg, on each opening and closing fill.').waitFor();
    // Four legs, opened and closed: 8 fills of $0.65 a contract (a leg held to expiry settles without one).
    expect(answer.trades[0]!.commission).toBeGreaterThan(0);
    expect(answer.trades[0]!.commission).toBeLessThanOrEqual(8 * 0.65 * answer.trades[0]!.qty + 0.005);
    await page.getByText(/^Trades \(\d[\d,]* positions/).waitFor();
    const rows = page.locator('.options-trades > tbody > tr:not(.detail-row)');
    expect(await rows.count()).toBeGreaterThan(1);
    for (const reason of await rows.locator('td[data-label="Exit reason"]').allInnerTexts()) expect(EXIT_WORDS).toContain(reason);
    const first = rows.first();
    const entered = await first.locator('td[data-label="Entry date"]').innerText();
    expect(await first.locator('td[data-label="Credit"]').innerText()).toMatch(/^\$\d+\.\d\d$/);
    await first.getByRole('button', { name: `Show 4 legs of ${entered}` }).click();
    const legs = page.getByRole('table', { name: `Legs of the position opened ${entered}` });
    await legs.waitFor();
    const legRows = legs.locator('tbody tr');
    expect(await legRows.count()).toBe(4);
    for (const occ of await legRows.locator('td[data-label="Option (OCC)"]').allInnerTexts()) expect(occ).toMatch(/^SPX\d{6}[CP]\d{8}$/);
    expect((await legRows.locator('td[data-label="Leg"]').allInnerTexts()).sort()).toEqual(['Long call', 'Long put', 'Short call', 'Short put']);
    expect(new Set(await legRows.locator('td[data-label="Expiry"]').allInnerTexts()).size).toBe(1);
    expect(await first.getByRole('button', { name: `Hide 4 legs of ${entered}` }).getAttribute('aria-expanded')).toBe('true');
    // The equity curve and drawdown as for equity strategies.
    for (const name of ['Equity curve', 'Drawdown']) {
      const box = (await page.getByRole('img', { name }).locator('canvas').first().boundingBox())!;
      expect(box.width * box.height, name).toBeGreaterThan(10_000);
    }
    await shot('legs');

    // The exports and the Report tab as for an equity result, the note still above the tabs.
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download trades (CSV)' }).click();
    const lines = (await readFile((await (await downloaded).path())!, 'utf8')).split('\r\n');
    expect(lines[0]).toBe('symbol,side,entry_date,entry_price,exit_date,exit_price,qty,pnl,return,commission,exit_reason,credit,legs');
    expect(lines.length).toBe(answer.trades.length + 2);
    // An iron condor's row: its four legs in the last column, each "side right strike expiry occ entry exit".
    const legsField = lines[1]!.split(',').at(-1)!.split('; ');
    expect(legsField.length).toBe(4);
    for (const leg of legsField) expect(leg).toMatch(/^(long|short) (put|call) \d+(\.\d+)? \d{4}-\d\d-\d\d SPX\d{6}[CP]\d{8} [\d.]+ [\d.]+$/);
    await page.getByRole('tab', { name: 'Report' }).click();
    const monthly = page.getByRole('table', { name: /Monthly returns/ });
    await expect.poll(() => monthly.locator('tbody tr').count()).toBe(new Set(answer.report.monthly_returns.map((entry) => entry.year)).size);
    expect(await page.getByText(MODELED_NOTE).isVisible()).toBe(true);
    await shot('report');
    await page.getByRole('tab', { name: 'Summary' }).click();

    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);
    await shot('legs-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(browser.errors).toEqual([]);
  });

  it('says an options strategy without a spec, or with a volatility symbol it has no prices for, needs editing, with a link to its form', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'options-backtest-no-spec');
    const created = await page.request.post(`${server.origin}/api/strategies`, {
      headers: { origin: server.origin },
      data: { name: 'Bare spread', strategy_type: 'vertical_spread', entry_symbol_allowlist: 'SPX' },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await page.goto(`${server.origin}/library/backtest?id=${id}`);
    await heading(page, 'Backtest a strategy');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const link = page.getByRole('link', { name: 'Edit the strategy to give its options spec' });
    await link.waitFor();
    expect(browser.errors).toEqual([failedLoad(422, 'Unprocessable Entity')]);
    browser.errors.length = 0;
    await shot('refused');
    await link.click();
    await heading(page, 'Edit strategy');
    // A vertical spread's spec has a structure and a width; the short strike placed by percent out of the money.
    const spec = page.getByRole('group', { name: 'Options spec' });
    await spec.getByLabel('Structure').selectOption({ label: 'Put credit spread (sell a put, buy a lower one)' });
    await spec.getByRole('radio', { name: '% out of the money' }).check();
    await spec.getByLabel('Short strike out of the money (%)').fill('5');
    await spec.getByLabel('Width ($)').fill('5');
    await spec.getByLabel('Days to expiry at entry').fill('30');
    // A volatility index this server has no prices for: saved (a ticker), refused by the backtest.
    await spec.getByLabel('Volatility symbol (optional)').pressSequentially('zzzz');
    const patched = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patched).postDataJSON()).toEqual({ options_spec: { structure: 'put_credit', short_otm_pct: 0.05, width: 5, dte: 30 }, volatility_symbol: 'ZZZZ' });
    await page.getByText('Saved the changes to “Bare spread”.').waitFor();
    await page.goto(`${server.origin}/library/backtest?id=${id}`);
    await heading(page, 'Backtest a strategy');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.getByRole('link', { name: "Edit the strategy's volatility symbol" }).waitFor();
    expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
    browser.errors.length = 0;
    await shot('unknown-volatility-symbol');
  });
});
