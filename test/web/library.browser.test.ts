import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpAndSignIn } from './rig/account.js';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { UNLABELLED_CONTROLS } from './rig/controls.js';
import { expectFieldError, failedLoad, holdNext } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

const EMAIL = 'lena@example.com';
const TYPO_RULE = 'close > smaa(close, 10)';
const ENTRY_RULE = 'close > sma(close, 10)';
const EXIT_RULE = 'close < sma(close, 30)';

/** Presses Tab until the focused element is `target` (keyboard only), failing after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab did not reach ${target} within ${limit} presses`);
}

const noSidewaysScroll = async (page: Page, what: string) =>
  expect(await page.evaluate('document.documentElement.scrollWidth'), what).toBeLessThanOrEqual(await page.evaluate('window.innerWidth'));

describeInBrowser('the Strategy Library in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    rmSync('test-output/browser/library', { recursive: true, force: true });
    server = await startWebServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const strategies = () => server.app.platform.db.selectFrom('strategies').selectAll().orderBy('id').execute();
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const item = (page: Page, name: string) => page.getByRole('list', { name: 'Your strategies' }).getByRole('listitem', { name });

  it('creates a strategy (a rule typo caught as typed), lists and toggles it, backtests it, checks a violating trade, and deletes it', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'library');
    const posts: string[] = [];
    page.on('request', (request) => void (request.method() !== 'GET' && posts.push(`${request.method()} ${new URL(request.url()).pathname}`)));

    await signUpAndSignIn(page, server, EMAIL, '/library');
    await heading(page, 'Strategy library');
    await page.getByText('Your library is empty').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBe('page');
    await shot('empty-library');

    // The form: every rule field, percentages typed as percent and shown as the fraction stored.
    await page.getByRole('link', { name: 'New strategy' }).click();
    await heading(page, 'New strategy');
    await page.getByLabel('Name').fill('SPX trend');
    await page.getByLabel('Description (optional)').fill('Above its 10-day average, out below the 30-day one.');
    await page.getByLabel('Allowed symbols').pressSequentially('spx');
    expect(await page.getByLabel('Allowed symbols').inputValue()).toBe('SPX');
    // Typed with a thousands separator: a text box, read by our own parser (a number box would report it empty, "no limit").
    await page.getByLabel('Max position size ($)').fill('5,000');
    await page.getByLabel('Allowed sides').selectOption({ label: 'Buy only' });
    await page.getByLabel('Profit target (%)').fill('20');
    await page.getByText('Stored as the fraction 0.2.').waitFor();
    await page.getByLabel('Stop loss (%)').fill('10');
    await page.getByText('Stored as the fraction -0.1.').waitFor();
    await page.getByLabel('Trailing stop (%)').fill('8');
    await page.getByText('Stored as the fraction 0.08.').waitFor();

    // A typo in the entry rule: the grammar's message and a caret under its column appear while typing.
    const entryRule = page.getByLabel('Entry rule (optional)');
    await entryRule.pressSequentially(TYPO_RULE);
    const typoMessage = 'column 9: unknown function "smaa" (did you mean "sma"?)';
    await expectFieldError(page, 'Entry rule (optional)', typoMessage);
    expect(await page.locator('.rule-editor__caret').innerText()).toBe(`${TYPO_RULE}\n${' '.repeat(8)}^`);
    await shot('rule-typo');
    // It cannot be saved: nothing is sent, and focus goes to the rule with its message.
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await expect.poll(() => page.evaluate('document.activeElement.name')).toBe('entry_rule');
    expect(posts.filter((post) => post.startsWith('POST /api/strategies'))).toEqual([]);

    // Fixed: the message goes; an exit rule too.
    await entryRule.fill(ENTRY_RULE);
    await page.getByText('✓ Valid rule.').waitFor();
    expect(await entryRule.getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('.rule-editor__caret').count()).toBe(0);
    await page.getByLabel('Exit rule (optional)').fill(EXIT_RULE);
    await shot('form-filled');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await heading(page, 'Strategy library');
    await page.getByText('Created “SPX trend”.').waitFor();
    const spx = item(page, 'SPX trend');
    expect(await spx.innerText()).toContain('SPX · at most $5,000.00 a trade · buy only · target +20.00% · stop -10.00% · trailing stop 8.00% · entry rule · exit rule');
    const [stored] = await strategies();
    expect(stored).toMatchObject({
      name: 'SPX trend',
      strategy_type: 'equity_long',
      entry_symbol_allowlist: 'SPX',
      entry_max_position_size: 5000,
      entry_allowed_sides: 'buy',
      exit_profit_target_pct: 0.2,
      exit_stop_loss_pct: -0.1,
      exit_trailing_stop_pct: 0.08,
      entry_rule: ENTRY_RULE,
      exit_rule: EXIT_RULE,
    });
    const id = Number(stored!.id);
    await shot('listed');

    // Active off: saved at once, and the active-only filter leaves it out; then on again.
    const active = spx.getByRole('switch', { name: 'Active' });
    await active.click();
    await expect.poll(() => active.isChecked()).toBe(false);
    await expect.poll(async () => Boolean((await strategies())[0]!.is_active)).toBe(false);
    await page.getByLabel('Active only').check();
    await page.waitForURL(`${server.origin}/library?active_only=1`);
    await page.getByText('No active strategies.').waitFor();
    await shot('active-only-empty');
    await page.getByLabel('Active only').uncheck();
    await active.click();
    await expect.poll(() => active.isChecked()).toBe(true);
    await expect.poll(async () => Boolean((await strategies())[0]!.is_active)).toBe(true);

    // Backtest: the symbols default to the allowlist; a symbol outside it is refused beside the field.
    await spx.getByRole('link', { name: 'Backtest SPX trend' }).click();
    await heading(page, 'Backtest a strategy');
    const symbols = page.getByLabel('Symbols');
    expect(await symbols.inputValue()).toBe('SPX');
    await symbols.fill('SPX, AAPL');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await expectFieldError(page, 'Symbols', await page.locator('.field--invalid .field__error').innerText());
    expect(await page.locator('.field--invalid .field__error').innerText()).toContain('AAPL');
    expect(browser.errors).toEqual([failedLoad(422, 'Unprocessable Entity')]);
    browser.errors.length = 0;
    await symbols.fill('SPX');
    const ran = page.waitForResponse((response) => response.url().endsWith('/api/backtest/run'));
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const backtest = await ran;
    // The lab's "Costs and sizing" at its defaults: no costs, all in, the strategy's own exits; no benchmark typed, none sent.
    expect(backtest.request().postDataJSON()).toEqual({
      strategy_id: id,
      symbols: ['SPX'],
      start_date: '2000-01-03',
      end_date: '2020-04-17',
      starting_capital: 10000,
      costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
      sizing: { mode: 'all_in' },
      exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
      report: true,
    });
    const backtestAnswer = (await backtest.json()) as { trades: unknown[]; report: { monthly_returns: { year: number }[] } };
    await page.getByText(/^Trades \(\d[\d,]* round trips/).waitFor();
    const cards = page.locator('.metric-card');
    expect(await cards.count()).toBe(13);
    expect(await cards.filter({ hasText: 'Sortino ratio' }).count()).toBe(1);
    expect(await cards.filter({ hasText: 'Exposure' }).count()).toBe(1);
    // Both charts drew on canvases of a real size.
    for (const name of ['Equity curve', 'Drawdown']) {
      const chart = page.getByRole('img', { name });
      await chart.locator('canvas').first().waitFor();
      const box = (await chart.locator('canvas').first().boundingBox())!;
      expect(box.width * box.height, name).toBeGreaterThan(10_000);
    }
    const bySymbol = page.getByRole('region', { name: 'By symbol' }).locator('tbody tr');
    expect(await bySymbol.count()).toBe(1);
    expect(await bySymbol.first().locator('th').innerText()).toBe('SPX');
    const trades = page.locator('.library-trades tbody tr');
    expect(await trades.count()).toBeGreaterThan(0);
    const reasons = await page.locator('.library-trades tbody tr td:nth-child(10)').allInnerTexts();
    expect(new Set(reasons).size).toBeGreaterThan(0);
    for (const reason of reasons) expect(['Stop loss', 'Trailing stop', 'Profit target', 'Exit rule', 'End of period']).toContain(reason);
    expect(await page.locator('.library-trades tbody tr td:nth-child(1)').allInnerTexts()).toEqual(reasons.map(() => 'SPX'));
    await shot('backtest');
    // The trades as CSV (a row each, with its symbol), and the report's monthly table (docs/web-app.md "Backtest report").
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download trades (CSV)' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('tradelab-SPX-SPX-trend-2000-01-03-to-2020-04-17-trades.csv');
    const csvLines = (await readFile((await download.path())!, 'utf8')).split('\r\n');
    expect(csvLines[0]).toBe('symbol,side,entry_date,entry_price,exit_date,exit_price,qty,pnl,return,commission,exit_reason');
    expect(csvLines.length).toBe(backtestAnswer.trades.length + 2);
    expect(csvLines.slice(1, -1).every((line) => line.startsWith('SPX,long,'))).toBe(true);
    await page.getByRole('tab', { name: 'Report' }).click();
    const monthly = page.getByRole('table', { name: /Monthly returns/ });
    await expect.poll(() => monthly.locator('tbody tr').count()).toBe(new Set(backtestAnswer.report.monthly_returns.map((entry) => entry.year)).size);
    await shot('backtest-report');

    // The trade check: a symbol outside the allowlist for more than the maximum position breaks two rules.
    await page.getByRole('link', { name: 'Back to your library' }).click();
    await item(page, 'SPX trend').getByRole('link', { name: 'Check a trade SPX trend' }).click();
    await heading(page, 'Check a trade');
    await expect.poll(() => page.getByLabel('Strategy').inputValue()).toBe(String(id));
    await page.getByLabel('Symbol').pressSequentially('aapl');
    await page.getByLabel('Quantity').fill('100');
    await page.getByLabel('Price ($, optional)').fill('3000');
    await page.getByRole('button', { name: 'Check trade' }).click();
    await page.getByText('Not compliant.').waitFor();
    const violations = page.getByRole('list', { name: 'Violations' }).getByRole('listitem');
    const listed = await violations.allInnerTexts();
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(/^Allowed symbols \(symbol_allowed\): .*AAPL/);
    expect(listed[1]).toMatch(/^Max position size \(max_position_size\): /);
    await shot('violations');
    await page.getByLabel('Symbol').fill('SPX');
    await page.getByLabel('Quantity').fill('1');
    await page.getByRole('button', { name: 'Check trade' }).click();
    await page.getByText('Compliant. The trade meets every rule of “SPX trend”.').waitFor();

    // 375 px: no page scrolls sideways, results included.
    await page.setViewportSize({ width: 375, height: 800 });
    await noSidewaysScroll(page, '/compliance at 375 px');
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);
    await shot('compliance-375');
    for (const path of ['/library', '/library/new', `/library/edit?id=${id}`, `/library/backtest?id=${id}`]) {
      await page.goto(`${server.origin}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await noSidewaysScroll(page, `${path} at 375 px`);
      expect(await page.evaluate(UNLABELLED_CONTROLS), path).toEqual([]);
    }
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.getByRole('img', { name: 'Drawdown' }).waitFor();
    await noSidewaysScroll(page, 'backtest results at 375 px');
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);
    await shot('backtest-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Delete asks first; "Keep it" keeps it and gives focus back to Delete.
    await page.goto(`${server.origin}/library`);
    await item(page, 'SPX trend').getByRole('button', { name: 'Delete SPX trend' }).click();
    const confirm = page.getByRole('group', { name: 'Delete SPX trend?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Delete SPX trend');
    expect(await strategies()).toHaveLength(1);
    await item(page, 'SPX trend').getByRole('button', { name: 'Delete SPX trend' }).click();
    await shot('confirm-delete');
    await confirm.getByRole('button', { name: 'Delete strategy' }).click();
    await page.getByText('Deleted “SPX trend”.').waitFor();
    await page.getByText('Your library is empty').waitFor();
    expect(await strategies()).toEqual([]);
    expect(posts.filter((post) => post.includes('/strategies'))).toEqual([
      'POST /api/strategies',
      `PATCH /api/strategies/${id}`,
      `PATCH /api/strategies/${id}`,
      `DELETE /api/strategies/${id}`,
    ]);
    expect(browser.errors).toEqual([]);
  });

  it('works from the keyboard alone: create with a rule typo fixed, switch off, delete', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'library-keyboard');
    await page.goto(`${server.origin}/library`);
    await heading(page, 'Strategy library');
    await tabTo(page, page.getByRole('link', { name: 'New strategy' }));
    await page.keyboard.press('Enter');
    await heading(page, 'New strategy');
    await tabTo(page, page.getByLabel('Name'));
    await page.keyboard.type('Keyboard dip');
    await tabTo(page, page.getByLabel('Allowed symbols'));
    await page.keyboard.type('spx');
    await tabTo(page, page.getByLabel('Entry rule (optional)'));
    await page.keyboard.type('close < sma(close 20)');
    await page.getByText('column 19: unexpected "20", expected "," or ")"').waitFor();
    await shot('typo');
    for (let presses = 0; presses < 4; presses += 1) await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(',');
    await page.getByText('✓ Valid rule.').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Create strategy' }));
    await page.keyboard.press('Enter');
    await page.getByText('Created “Keyboard dip”.').waitFor();
    expect((await strategies()).map((row) => [row.name, row.entry_symbol_allowlist, row.entry_rule])).toEqual([['Keyboard dip', 'SPX', 'close < sma(close, 20)']]);

    const dip = item(page, 'Keyboard dip');
    await tabTo(page, dip.getByRole('switch', { name: 'Active' }));
    await page.keyboard.press('Space');
    await expect.poll(async () => Boolean((await strategies())[0]!.is_active)).toBe(false);
    await tabTo(page, dip.getByRole('button', { name: 'Delete Keyboard dip' }));
    await page.keyboard.press('Enter');
    // The confirmation takes focus on its Delete button.
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Delete strategy');
    await shot('confirm');
    await page.keyboard.press('Enter');
    await page.getByText('Deleted “Keyboard dip”.').waitFor();
    expect(await strategies()).toEqual([]);
    expect(browser.errors).toEqual([]);
  });

  it('checks an options trade: a legs editor sized by the strategy type, OCC symbols checked, the leg structure reported', async () => {
    const { page } = browser;
    const shot = screenshotTaker(page, 'library-options');
    // Set up through the API with the page's own session (the browser journey above covers the form).
    const created = await page.request.post(`${server.origin}/api/strategies`, {
      headers: { origin: server.origin },
      data: { name: 'SPY condor', strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPY' },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    await page.goto(`${server.origin}/compliance?id=${id}`);
    await heading(page, 'Check a trade');
    await page.getByLabel('Leg 4 option symbol').waitFor();
    expect(await page.getByRole('group', { name: 'Legs' }).getByRole('listitem').count()).toBe(4);
    await page.getByLabel('Symbol', { exact: true }).pressSequentially('spy');
    await page.getByLabel('Side', { exact: true }).selectOption('sell');
    await page.getByLabel('Quantity').fill('1');
    await page.getByLabel('Price ($, optional)').fill('1.25');
    await page.getByLabel('Leg 1 option symbol').pressSequentially('spy');
    await page.getByRole('button', { name: 'Check trade' }).click();
    await expectFieldError(page, 'Leg 1 option symbol', 'Not an OCC option symbol: SPY261218C00450000 is the form.');
    await page.getByLabel('Leg 1 option symbol').fill('SPY271217P00450000');
    await page.getByLabel('Leg 2 option symbol').fill('SPY271217P00440000');
    await page.getByRole('button', { name: 'Remove leg 4' }).click();
    await page.getByRole('button', { name: 'Remove leg 3' }).click();
    const checked = page.waitForRequest((request) => request.url().endsWith('/api/trading/compliance-check'));
    await page.getByRole('button', { name: 'Check trade' }).click();
    expect((await checked).postDataJSON()).toEqual({
      strategy_id: id,
      symbol: 'SPY',
      qty: 1,
      side: 'sell',
      price: 1.25,
      order_type: 'market',
      legs: [
        { symbol: 'SPY271217P00450000', side: 'sell' },
        { symbol: 'SPY271217P00440000', side: 'buy' },
      ],
    });
    await page.getByText('Not compliant.').waitFor();
    const listed = await page.getByRole('list', { name: 'Violations' }).getByRole('listitem').allInnerTexts();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^Legs \(leg_structure\): /);
    await shot('legs');
    expect(browser.errors).toEqual([]);

    // A link naming a strategy that is not in the library says so, rather than silently checking another one.
    await page.goto(`${server.origin}/compliance?id=999999`);
    await heading(page, 'Check a trade');
    await page.getByText('Your library has no strategy 999999').waitFor({ timeout: 5_000 });
    expect(await page.getByLabel('Strategy', { exact: true }).inputValue()).toBe(String(id));
    expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
    browser.errors.length = 0;

    // Editing sends only what changed; an emptied field is sent as null.
    await page.goto(`${server.origin}/library/edit?id=${id}`);
    await heading(page, 'Edit strategy');
    expect(await page.getByLabel('Name').inputValue()).toBe('SPY condor');
    expect(await page.getByLabel('Allowed symbols').inputValue()).toBe('SPY');
    await page.getByLabel('Allowed symbols').fill('');
    await page.getByLabel('Minimum credit ($)').fill('1.3');
    await page.getByLabel('Profit target (%)').fill('7');
    const patched = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patched).postDataJSON()).toEqual({ entry_symbol_allowlist: null, credit_min_amount: 1.3, exit_profit_target_pct: 0.07 });
    await page.getByText('Saved the changes to “SPY condor”.').waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Saved the changes to “SPY condor”.');
    expect(await item(page, 'SPY condor').innerText()).toContain('any symbol · target +7.00%');
    expect(browser.errors).toEqual([]);
  });

  it('pages a long library 50 at a time, with the count from X-Total-Count', async () => {
    const { page } = browser;
    const existing = (await strategies()).length;
    for (let index = existing; index < 53; index += 1) {
      const created = await page.request.post(`${server.origin}/api/strategies`, {
        headers: { origin: server.origin },
        data: { name: `Bulk ${String(index).padStart(2, '0')}`, strategy_type: 'custom', is_active: index % 2 === 0 },
      });
      expect(created.status()).toBe(201);
    }
    await page.goto(`${server.origin}/library`);
    await page.getByText('Showing 1–50 of 53 strategies').waitFor();
    expect(await page.getByRole('list', { name: 'Your strategies' }).getByRole('listitem').count()).toBe(50);
    await page.getByRole('navigation', { name: 'Pages of strategies' }).getByRole('link', { name: 'Next 3 →' }).click();
    await page.waitForURL(`${server.origin}/library?offset=50`);
    await page.getByText('Showing 51–53 of 53 strategies').waitFor();
    expect(await page.getByRole('list', { name: 'Your strategies' }).getByRole('listitem').count()).toBe(3);
    // The filter starts again at the first page.
    await page.getByLabel('Active only').check();
    await page.waitForURL(`${server.origin}/library?active_only=1`);
    const active = (await strategies()).filter((row) => Boolean(row.is_active)).length;
    await page.getByText(`${active} active strategies`).waitFor();

    // A slow answer for the filter the person has already left does not replace the list shown since.
    await page.getByLabel('Active only').uncheck();
    await page.getByText('Showing 1–50 of 53 strategies').waitFor();
    const slow = await holdNext(page, '**/api/strategies*active_only=1*');
    await page.getByLabel('Active only').check();
    const unfiltered = page.waitForResponse((response) => response.url().includes('/api/strategies?') && !response.url().includes('active_only'));
    await page.getByLabel('Active only').uncheck();
    await unfiltered;
    await page.getByText('Showing 1–50 of 53 strategies').waitFor();
    const late = page.waitForResponse(/active_only=1/);
    await slow.release();
    await late;
    await page.waitForTimeout(300);
    expect(await page.locator('#strategies-count').innerText()).toBe('Showing 1–50 of 53 strategies');
    expect(browser.errors).toEqual([]);
  });
});
