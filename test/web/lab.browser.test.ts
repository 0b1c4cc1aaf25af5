import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, screenshotTaker, type BrowserSession } from './rig/chromium.js';
import { expectFieldError, failedLoad, holdNext } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

/** The text of every cell of one column of the fills table (behind "Show the fills"), top to bottom. */
async function tradesColumn(page: Page, index: number): Promise<string[]> {
  return page.locator(`.fills-table tbody tr td:nth-child(${index})`).allInnerTexts();
}

/** Opens the raw fills under the round trips. */
async function showFills(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Show the fills/ }).click();
  await page.locator('.fills-table').waitFor();
}

/** A parsed money cell: "-$1,234.50" → -1234.5; the dash of a BUY's P&L → null. */
function money(text: string): number | null {
  if (text.includes('—')) return null;
  return Number(text.replace(/[$,\s]|not defined/g, ''));
}

const PREVIOUS_RUN = 'These results are from your previous run';
const UNKNOWN_ZZZZ = 'We have no prices for ZZZZ. Pick a symbol from the list: type part of a ticker or name to search.';
const SCROLL_HINT = 'Scroll sideways to see every column.';

describeInBrowser('the backtest lab in Chromium', () => {
  let server: WebServer;

  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a backtest with a changed parameter, shows its metrics, charts and sortable trades, and places errors beside their fields', async () => {
    const browser: BrowserSession = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'lab');
      const backtestBodies: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/backtest')) backtestBodies.push(request.postDataJSON());
      });

      await page.goto(`${server.origin}/`);
      await page.getByRole('heading', { name: 'Backtest lab', level: 1 }).waitFor();
      const template = page.getByLabel('Strategy template');
      await expect.poll(() => template.inputValue()).toBe('sma_crossover');
      expect(await page.getByLabel('Symbol').inputValue()).toBe('SPX');
      expect(await page.getByLabel('Fast period').inputValue()).toBe('10');
      expect(await page.getByLabel('Fast period').getAttribute('min')).toBe('2');
      expect(await page.getByLabel('Fast period').getAttribute('max')).toBe('100');
      expect(await page.getByLabel('Fast period').getAttribute('step')).toBe('1');
      await shot('form');

      // A template change resets the parameters to the new template's defaults.
      await page.getByLabel('Fast period').fill('33');
      await template.selectOption('ema_crossover');
      expect(await page.getByLabel('Fast period').inputValue()).toBe('12');
      await template.selectOption('sma_crossover');
      expect(await page.getByLabel('Fast period').inputValue()).toBe('10');

      await page.getByLabel('Fast period').fill('20');
      await page.getByLabel('Slow period').fill('100');
      const held = await holdNext(page, '**/api/backtest');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      const progress = page.getByRole('progressbar', { name: 'Running backtest' });
      await progress.waitFor();
      expect(await page.getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
      expect(await page.locator('section.results').getAttribute('aria-busy')).toBe('true');
      expect(await page.locator('.run-progress__text').innerText()).toMatch(/^Running backtest… \d+\.\d s$/);
      // The clock ticks while the request is held; the progress bar's value is in whole seconds, not ten a second.
      await expect.poll(() => page.locator('.run-progress__text').innerText()).not.toBe('Running backtest… 0.0 s');
      expect(await progress.getAttribute('aria-valuetext')).toMatch(/^\d+ s elapsed$/);
      await shot('running');
      await held.release();

      await page.locator('.metric-card').first().waitFor();
      await progress.waitFor({ state: 'detached' });
      expect(await page.locator('section.results').getAttribute('aria-busy')).toBe('false');
      // Focus goes to the results' heading, not to the page's body (the button it was on was disabled while running).
      await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('lab-results-heading');
      expect(await page.getByText(PREVIOUS_RUN, { exact: false }).count()).toBe(0);
      expect(backtestBodies.at(-1)).toEqual({
        symbol: 'SPX',
        start_date: '2000-01-03',
        end_date: '2020-04-17',
        initial_capital: 10000,
        data_feed: 'delayed_sip',
        strategy: 'sma_crossover',
        strategy_params: [
          { name: 'fast_period', value: 20 },
          { name: 'slow_period', value: 100 },
        ],
        costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
        sizing: { mode: 'all_in' },
        exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
        benchmark: 'SPX',
        report: true,
      });
      const cards = await page.locator('.metric-card dt').allInnerTexts();
      expect(cards).toEqual([
        'Net profit',
        'Total return',
        'Annualized return',
        'Buy and hold return',
        'Gross profit',
        'Gross loss',
        'Commission paid',
        'Slippage paid',
        'Max drawdown',
        'Sharpe ratio',
        'Sortino ratio',
        'Profit factor',
        'Total trades',
        'Percent profitable',
        'Avg trade',
        'Largest win',
        'Largest loss',
        'Avg bars in trade',
        'Final capital',
        'Alpha',
        'Beta',
      ]);
      expect(await page.getByText('No costs assumed: every fill at the open, no commission, no slippage.').isVisible()).toBe(true);
      expect(await metricValue(page, 'Total return').innerText()).toMatch(/^-?\d+\.\d\d%$/);
      expect(await metricValue(page, 'Final capital').innerText()).toMatch(/^\$[\d,]+\.\d\d$/);
      await expect.poll(() => page.getByText('SMA Crossover on SPX, 2000-01-03 to 2020-04-17', { exact: false }).count()).toBe(1);

      for (const name of ['Equity curve', 'Drawdown']) {
        const chart = page.getByRole('img', { name });
        await chart.locator('canvas').first().waitFor();
        const box = await chart.locator('canvas').first().boundingBox();
        expect(box!.width).toBeGreaterThan(100);
        expect(box!.height).toBeGreaterThan(100);
      }

      // Sorting the fills: by P&L ascending (BUYs, which have none, last), then descending.
      await showFills(page);
      const dates = await tradesColumn(page, 1);
      expect(dates.length).toBeGreaterThan(4);
      expect(dates).toEqual([...dates].sort());
      const pnlHeader = page.locator('.fills-table th', { hasText: 'P&L' });
      expect(await pnlHeader.getAttribute('aria-sort')).toBeNull();
      await pnlHeader.getByRole('button').click();
      expect(await pnlHeader.getAttribute('aria-sort')).toBe('ascending');
      const ascending = (await tradesColumn(page, 7)).map(money);
      const sells = ascending.filter((value): value is number => value !== null);
      expect(sells).toEqual([...sells].sort((a, b) => a - b));
      expect(ascending.slice(sells.length).every((value) => value === null)).toBe(true);
      expect(await tradesColumn(page, 1)).not.toEqual(dates);
      await pnlHeader.getByRole('button').click();
      expect(await pnlHeader.getAttribute('aria-sort')).toBe('descending');
      const descending = (await tradesColumn(page, 7)).map(money);
      expect(descending.slice(0, sells.length)).toEqual([...sells].reverse());
      // Nulls stay last whichever the direction.
      expect(descending.slice(sells.length).every((value) => value === null)).toBe(true);
      await page.locator('.fills-table th', { hasText: 'Date' }).getByRole('button').click();
      expect(await tradesColumn(page, 1)).toEqual(dates);
      await shot('results');
      // The picture for the README: form, metric cards and both charts in one desktop screen.
      await page.setViewportSize({ width: 1280, height: 1400 });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: 'test-output/browser/lab/lab-desktop.png' });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Client-side checks come first and send nothing: a parameter out of range, an end before the start.
      const sentBefore = backtestBodies.length;
      await page.getByLabel('Fast period').fill('500');
      await page.getByLabel('End date').fill('1999-12-31');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      await expectFieldError(page, 'Fast period', 'Enter a whole number from 2 to 100.');
      await expectFieldError(page, 'End date', 'The end date must be on or after the start date.');
      expect(await page.evaluate('document.activeElement && document.activeElement.name')).toBe('end_date');
      expect(backtestBodies.length).toBe(sentBefore);
      await shot('client-errors');
      // The last run's results stay, marked as such, under the refusal.
      expect(await page.getByText(PREVIOUS_RUN, { exact: false }).isVisible()).toBe(true);
      expect(await page.locator('.results__body--stale').count()).toBe(1);

      // A fixed value clears its error at once; the other stays until its own value changes.
      await page.getByLabel('End date').fill('2020-04-17');
      expect(await page.getByLabel('End date').getAttribute('aria-invalid')).toBe('false');
      expect(await page.getByText('The end date must be on or after the start date.').count()).toBe(0);
      expect(await page.getByLabel('Fast period').getAttribute('aria-invalid')).toBe('true');

      // The server's refusal of a parameter pair lands beside the parameter it names.
      await page.getByLabel('End date').fill('2020-04-17');
      await page.getByLabel('Fast period').fill('50');
      await page.getByLabel('Slow period').fill('40');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      await expectFieldError(page, 'Fast period', 'Parameter "fast_period" (50) must be below "slow_period" (40).');
      expect(await page.getByLabel('Slow period').getAttribute('aria-invalid')).toBe('false');
      expect(browser.errors).toEqual([failedLoad(400, 'Bad Request')]);
      browser.errors.length = 0;

      // An unknown symbol: 404 unknown_symbol, said plainly beside the symbol field, which takes focus.
      await page.getByLabel('Fast period').fill('20');
      await page.getByLabel('Slow period').fill('100');
      await page.getByLabel('Symbol').fill('ZZZZ');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      await expectFieldError(page, 'Symbol', UNKNOWN_ZZZZ);
      expect(await page.evaluate('document.activeElement.name')).toBe('symbol');
      expect(await page.getByLabel('Fast period').getAttribute('aria-invalid')).toBe('false');
      await shot('unknown-symbol');
      expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
      browser.errors.length = 0;

      // This server has no market-data keys, so it could never serve the real-time feed: it is not offered.
      const feeds = page.getByLabel('Data feed').locator('option');
      await expect.poll(() => feeds.evaluateAll((options) => options.map((o) => (o as { value: string }).value))).toEqual(['delayed_sip']);

      // Symbol search suggests tickers from GET /api/symbols as one types.
      const suggestions = page.waitForResponse((response) => response.url().includes('/api/symbols?q=sp'));
      await page.getByLabel('Symbol').fill('sp');
      expect((await suggestions).status()).toBe(200);
      const listId = await page.getByLabel('Symbol').getAttribute('list');
      await expect.poll(() => page.locator(`datalist[id="${listId}"] option`).evaluateAll((options) => options.map((o) => (o as { value: string }).value))).toEqual(['SPX']);

      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('runs the form with the keyboard alone', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      await page.getByLabel('Symbol').focus();
      const sent = page.waitForRequest('**/api/backtest');
      let typed = false;
      for (let presses = 0; presses < 40; presses += 1) {
        const focused = (await page.evaluate(
          'document.activeElement.name || document.activeElement.textContent',
        )) as string;
        if (focused === 'param.fast_period' && !typed) {
          await page.keyboard.press('Control+A');
          await page.keyboard.type('15');
          typed = true;
        }
        if (focused === 'Run backtest') break;
        await page.keyboard.press('Tab');
      }
      expect(typed).toBe(true);
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Run backtest');
      await page.keyboard.press('Enter');
      expect(((await sent).postDataJSON() as { strategy_params: unknown }).strategy_params).toEqual([
        { name: 'fast_period', value: 15 },
        { name: 'slow_period', value: 30 },
      ]);
      await page.locator('.trades-table').waitFor();

      // Sorting by keyboard: a header button takes focus and Enter sorts.
      const returnHeader = page.locator('.trades-table th', { hasText: 'Return' });
      await returnHeader.getByRole('button').focus();
      await page.keyboard.press('Enter');
      expect(await returnHeader.getAttribute('aria-sort')).toBe('ascending');
      await page.keyboard.press('Enter');
      expect(await returnHeader.getAttribute('aria-sort')).toBe('descending');

      // Enter in a field submits the form too.
      const again = page.waitForRequest('**/api/backtest');
      await page.getByLabel('Initial capital ($)').focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('25000');
      await page.keyboard.press('Enter');
      expect(((await again).postDataJSON() as { initial_capital: number }).initial_capital).toBe(25000);
      await page.locator('.metric-card', { has: page.getByText('Final capital', { exact: true }) }).getByText('from $25,000.00', { exact: false }).waitFor();
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows thousands of trades a hundred at a time, sorting all of them, with "show more" usable by keyboard', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      await page.goto(`${server.origin}/`);
      const template = page.getByLabel('Strategy template');
      await expect.poll(() => template.inputValue()).toBe('sma_crossover');
      await template.selectOption('bollinger_reversion');
      await page.getByLabel('Period', { exact: true }).fill('2');
      await page.getByLabel('Std dev').fill('0.5');
      const answer = page.waitForResponse('**/api/backtest');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      const trades = ((await (await answer).json()) as { trades: { pnl: number | null }[] }).trades;
      expect(trades.length).toBeGreaterThan(1000);

      await showFills(page);
      const rows = page.locator('.fills-table tbody tr');
      await expect.poll(() => rows.count()).toBe(100);
      const caption = page.locator('.fills-table caption');
      expect(await caption.innerText()).toContain(`first 100 shown`);

      // The sort covers every trade, not only the page on screen: the lowest P&L of all comes first.
      await page.locator('.fills-table th', { hasText: 'P&L' }).getByRole('button').click();
      const lowest = Math.min(...trades.flatMap((trade) => (trade.pnl === null ? [] : [trade.pnl])));
      expect(money((await tradesColumn(page, 7))[0]!)).toBeCloseTo(lowest, 2);

      const more = page.getByRole('button', { name: 'Show 100 more fills' });
      await more.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => rows.count()).toBe(200);
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Show 100 more fills');
      // Through to the last page: the button goes, and focus lands on the table rather than the page's body.
      for (let shown = 200; shown < trades.length; shown += 100) await page.keyboard.press('Enter');
      await expect.poll(() => rows.count()).toBe(trades.length);
      expect(await page.getByRole('button', { name: /more fills/ }).count()).toBe(0);
      expect(await page.evaluate("document.activeElement.getAttribute('role')")).toBe('region');
      expect(await caption.innerText()).not.toContain('shown');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('fills the form from its address and runs it once, checks it first, and ignores an address naming no known template', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const bodies: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/backtest')) bodies.push(request.postDataJSON());
      });
      await page.goto(`${server.origin}/?symbol=SPX&strategy=ema_crossover&start_date=2010-01-04&end_date=2015-12-31&initial_capital=5000&slow_period=40`);
      await page.locator('.metric-card').first().waitFor();
      expect(bodies).toEqual([
        {
          symbol: 'SPX',
          start_date: '2010-01-04',
          end_date: '2015-12-31',
          initial_capital: 5000,
          data_feed: 'delayed_sip',
          strategy: 'ema_crossover',
          strategy_params: [
            { name: 'fast_period', value: 12 },
            { name: 'slow_period', value: 40 },
          ],
          costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
          sizing: { mode: 'all_in' },
          exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
          benchmark: 'SPX',
          report: true,
        },
      ]);
      expect(await page.getByLabel('Strategy template').inputValue()).toBe('ema_crossover');
      expect(await page.getByLabel('Start date').inputValue()).toBe('2010-01-04');
      expect(await page.getByLabel('Initial capital ($)').inputValue()).toBe('5000');

      // A value out of bounds in the address is refused beside its field, as if typed; nothing is sent.
      await page.goto(`${server.origin}/?strategy=sma_crossover&fast_period=500`);
      await expectFieldError(page, 'Fast period', 'Enter a whole number from 2 to 100.');
      expect(bodies).toHaveLength(1);

      // No known template: the lab as without an address, nothing run.
      await page.goto(`${server.origin}/?strategy=nope&fast_period=7`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      expect(await page.getByLabel('Fast period').inputValue()).toBe('10');
      await page.getByText('Choose a template and press “Run backtest”.').waitFor();
      expect(bodies).toHaveLength(1);

      // Too little capital for one share: the answer says no signal could be filled and what a share cost.
      await page.goto(`${server.origin}/?symbol=SPX&strategy=sma_crossover&start_date=2010-01-04&end_date=2012-12-31&initial_capital=500`);
      await page
        .getByText(/^The strategy signalled \d+ times but no signal could be filled: one share of SPX cost \$1,\d{3}\.\d{2,4} with slippage and commission at the first fill, more than the \$500\.00 capital\.$/)
        .waitFor();
      expect(await page.getByText('No trades: no signal could be filled (see above).').isVisible()).toBe(true);
      expect(await page.getByText('the strategy never entered', { exact: false }).count()).toBe(0);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('fits a 375 px wide screen: no sideways page scroll, trades as cards in the page, the comparison says it scrolls', async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 800 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'lab-375');
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      await page.locator('.trades-table').waitFor();
      const chart = page.getByRole('img', { name: 'Equity curve' });
      await chart.locator('canvas').first().waitFor();
      const box = (await chart.locator('canvas').first().boundingBox())!;
      expect(box.width).toBeGreaterThan(200);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      // The trades are no scroll box inside the page: each trade is a card, its figures named, and the page scrolls.
      const trades = page.locator('.trades-table').locator('..');
      expect(await trades.evaluate((box) => box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight)).toBe(true);
      expect(await page.evaluate("getComputedStyle(document.querySelector('.trades-table tbody td:nth-child(3)'), '::before').content")).toBe('"Exit date"');
      await shot('results');

      await page.getByRole('link', { name: 'Compare', exact: true }).click();
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await page.locator('.comparison-table tbody tr').nth(6).waitFor();
      await page.getByRole('img', { name: 'Equity curves' }).locator('canvas').first().waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      // The comparison's columns do not fit: it scrolls sideways in its box, and says so.
      expect(await page.locator('.comparison-table').locator('..').evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
      expect(await page.getByText(SCROLL_HINT).isVisible()).toBe(true);
      await shot('compare');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

function metricValue(page: Page, label: string) {
  return page.locator('.metric-card', { has: page.getByText(label, { exact: true }) }).locator('.metric-card__value');
}
