import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, screenshotTaker } from './rig/chromium.js';
import { expectFieldError, failedLoad, holdNext } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

describeInBrowser('the comparison view in Chromium', () => {
  let server: WebServer;

  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('compares several templates on one chart with a legend and a row of metrics each', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'compare');
      await page.goto(`${server.origin}/`);
      await page.getByRole('heading', { name: 'Backtest lab', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'compare strategies' }).click();
      await page.getByRole('heading', { name: 'Compare strategies', level: 1 }).waitFor();
      const boxes = page.getByRole('group', { name: 'Templates' }).getByRole('checkbox');
      await expect.poll(() => boxes.count()).toBe(7);
      for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);

      // None chosen is caught before sending.
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await page.getByText('Choose at least one template.').waitFor();

      await page.getByRole('button', { name: 'Select all' }).click();
      expect(await page.getByText('Choose at least one template.').count()).toBe(0);
      await page.getByLabel('Bollinger Band Reversion').uncheck();
      await page.getByLabel('Donchian Channel Breakout').uncheck();
      const held = await holdNext(page, '**/api/compare-strategies');
      const sent = page.waitForRequest('**/api/compare-strategies');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await page.getByRole('progressbar', { name: 'Running comparison' }).waitFor();
      expect(await page.getByRole('button', { name: 'Comparing…' }).isDisabled()).toBe(true);
      await held.release();
      expect((await sent).postDataJSON()).toEqual({
        symbol: 'SPX',
        start_date: '2000-01-03',
        end_date: '2020-04-17',
        initial_capital: 10000,
        data_feed: 'delayed_sip',
        strategies: ['buy_and_hold', 'sma_crossover', 'ema_crossover', 'rsi_reversion', 'macd_crossover'],
        costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
        sizing: { mode: 'all_in' },
        exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
        benchmark: 'SPX',
      });

      const rows = page.locator('.comparison-table tbody tr');
      await expect.poll(() => rows.count()).toBe(5);
      await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('compare-results-heading');
      // At 1280 px every column fits: nothing to scroll to, and no hint.
      expect(await page.locator('.comparison-table').locator('..').evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
      expect(await page.getByText('Scroll sideways to see every column.').isVisible()).toBe(false);
      expect(await page.locator('.comparison-table tbody th').allInnerTexts()).toEqual([
        'Buy and Hold',
        'SMA Crossover',
        'EMA Crossover',
        'RSI Mean Reversion',
        'MACD Crossover',
      ]);
      const chart = page.getByRole('img', { name: 'Equity curves' });
      await chart.locator('canvas').first().waitFor();
      expect((await chart.locator('canvas').first().boundingBox())!.width).toBeGreaterThan(100);
      expect(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').count()).toBe(6);
      expect(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').last().innerText()).toMatch(/^Benchmark: SPX held\s-?[\d,]+\.\d\d%$/);
      expect(await page.locator('.legend__swatch').evaluateAll((swatches) => new Set(swatches.slice(0, 5).map((s) => (s as { style: { backgroundColor: string } }).style.backgroundColor)).size)).toBe(5);
      await shot('compared');
      await page.screenshot({ path: 'test-output/browser/compare/compare-desktop.png' });

      // An API refusal is shown beside its field here too.
      await page.getByLabel('Symbol').fill('ZZZZ');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await expectFieldError(page, 'Symbol', 'We have no prices for ZZZZ. Pick a symbol from the list: type part of a ticker or name to search.');
      expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
      browser.errors.length = 0;
      expect(await page.getByText('These results are from your previous run', { exact: false }).isVisible()).toBe(true);
      await page.getByLabel('Symbol').fill('SPX');
      expect(await page.getByLabel('Symbol').getAttribute('aria-invalid')).toBe('false');

      await page.getByRole('link', { name: 'backtest lab' }).click();
      await page.getByRole('heading', { name: 'Backtest lab', level: 1 }).waitFor();
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
