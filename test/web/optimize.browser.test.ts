import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UNLABELLED_CONTROLS } from './rig/controls.js';
import { describeInBrowser, fullPageScreenshot, launchBrowser, screenshotTaker } from './rig/chromium.js';
import { expectFieldError, failedLoad, holdNext } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

/** Distinct colours among the heat map canvas's pixels (a blank canvas has one: transparent). */
const CANVAS_COLOURS = `(() => {
  const canvas = document.querySelector('.heat-map__canvas');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const seen = new Set();
  for (let i = 0; i < data.length; i += 16) seen.add(data[i] + ',' + data[i + 1] + ',' + data[i + 2] + ',' + data[i + 3]);
  return seen.size;
})()`;

/** The page coordinates of the middle of a heat map cell, from the layout the canvas states in its data attributes. */
async function cellCentre(page: Page, row: number, column: number): Promise<{ x: number; y: number }> {
  const canvas = page.locator('.heat-map__canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const read = async (name: string) => Number(await canvas.getAttribute(`data-${name}`));
  const [left, top, width, height] = await Promise.all([read('left'), read('top'), read('cell-width'), read('cell-height')]);
  return { x: box.x + left + (column + 0.5) * width, y: box.y + top + (row + 0.5) * height };
}

describeInBrowser('the Optimize view in Chromium', () => {
  let server: WebServer;

  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sweeps two parameters into a heat map, shows a cell on hover and by keyboard, and opens it in the lab', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'optimize');
      const sweeps: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/backtest/sweep')) sweeps.push(request.postDataJSON());
      });
      await page.goto(`${server.origin}/`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Optimize' }).click();
      await page.getByRole('heading', { name: 'Optimize a strategy', level: 1 }).waitFor();
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      expect(await page.getByLabel('First parameter').inputValue()).toBe('fast_period');
      // Default ranges on nice steps: fast 10, 20, …, 100 and slow 50, 100, …, 400.
      expect(await page.getByLabel('Fast period: from').inputValue()).toBe('10');
      expect(await page.getByLabel('Fast period: to').inputValue()).toBe('100');
      expect(await page.getByLabel('Slow period: step').inputValue()).toBe('50');
      expect(await page.locator('output[name="cell-count"]').innerText()).toBe('10 × 8 = 80 cells (at most 10,000)');
      expect(await page.getByLabel('Minimum trades').inputValue()).toBe('10');

      // Too many cells: counted as typed and refused without sending anything.
      await page.getByLabel('Fast period: step').fill('1');
      await page.getByLabel('Slow period: from').fill('5');
      await page.getByLabel('Slow period: to').fill('400');
      await page.getByLabel('Slow period: step').fill('1');
      expect(await page.locator('output[name="cell-count"]').innerText()).toBe('91 × 396 = 36,036 cells (at most 10,000)');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      await page.getByText('The grid has 36,036 cells; at most 10,000. Widen a step or narrow a range.').waitFor();
      expect(sweeps).toEqual([]);
      // Focus goes to the refused group, which its error describes.
      expect(await page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.getAttribute('aria-describedby')")).toBe('FIELDSET grid-error');
      await shot('too-many-cells');

      // fast 5..20 step 5 × slow 30..60 step 10: 16 cells.
      await page.getByLabel('Fast period: from').fill('5');
      await page.getByLabel('Fast period: to').fill('20');
      await page.getByLabel('Fast period: step').fill('5');
      await page.getByLabel('Slow period: from').fill('30');
      await page.getByLabel('Slow period: to').fill('60');
      await page.getByLabel('Slow period: step').fill('10');
      await page.getByLabel('Objective').selectOption('total_return');
      expect(await page.locator('output[name="cell-count"]').innerText()).toBe('4 × 4 = 16 cells (at most 10,000)');
      const held = await holdNext(page, '**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      await page.getByRole('progressbar', { name: 'Running sweep' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sweeping…' }).isDisabled()).toBe(true);
      const answered = page.waitForResponse('**/api/backtest/sweep');
      await held.release();
      const answer = (await (await answered).json()) as { cells: { params: Record<string, number>; total_return: number }[]; best: { params: Record<string, number> } };
      expect(sweeps).toEqual([
        {
          symbol: 'SPX',
          start_date: '2000-01-03',
          end_date: '2020-04-17',
          initial_capital: 10000,
          data_feed: 'delayed_sip',
          strategy: 'sma_crossover',
          grid: { fast_period: { min: 5, max: 20, step: 5 }, slow_period: { min: 30, max: 60, step: 10 } },
          objective: 'total_return',
          min_trades: 10,
          costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
          sizing: { mode: 'all_in' },
          exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
          benchmark: 'SPX',
        },
      ]);
      expect(answer.cells).toHaveLength(16);

      // The heat map is drawn: many colours on the canvas, a legend with the scale's ends, the top cells in a table.
      const canvas = page.locator('.heat-map__canvas');
      await canvas.waitFor();
      await expect.poll(() => page.evaluate(CANVAS_COLOURS)).toBeGreaterThan(10);
      const returns = answer.cells.map((cell) => cell.total_return);
      const percent = (value: number) => new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
      expect(await page.locator('.heat-legend__end').allInnerTexts()).toEqual([percent(Math.min(...returns)), percent(Math.max(...returns))]);
      const topRows = page.locator('.top-cells-table tbody tr');
      expect(await topRows.count()).toBe(10);
      const bestRow = await topRows.first().locator('td').allInnerTexts();
      expect(bestRow.slice(0, 2)).toEqual([String(answer.best.params.fast_period), String(answer.best.params.slow_period)]);
      await shot('heat-map');
      await fullPageScreenshot(page, 'test-output/browser/optimize/optimize-desktop.png');

      // Hover: the tooltip names the cell under the pointer (row 2 = fast 10, column 2 = slow 40) and its figures.
      const cell = answer.cells.find((candidate) => candidate.params.fast_period === 10 && candidate.params.slow_period === 40)!;
      const centre = await cellCentre(page, 1, 1);
      await page.mouse.move(centre.x, centre.y);
      const tooltip = page.getByRole('tooltip');
      await tooltip.waitFor();
      expect(await tooltip.innerText()).toContain('Fast period 10, slow period 40');
      expect(await tooltip.innerText()).toContain(percent(cell.total_return));
      await page.screenshot({ path: 'test-output/browser/optimize/optimize-hover.png' });

      // Keyboard: focus starts on the best cell; arrows move it and the live line reads the cell out.
      await canvas.focus();
      const readout = page.locator('.heat-map__readout');
      expect(await readout.innerText()).toContain('(best cell)');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowRight');
      expect(await readout.innerText()).toMatch(/^Row 1 of 4, column 2 of 4( \(best cell\))?: Fast period 5, slow period 40\. Total return /);
      expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);

      // A click opens that backtest in the lab: its form prefilled from the address and the backtest run once.
      const again = await cellCentre(page, 1, 1);
      await page.mouse.click(again.x, again.y);
      await page.getByRole('heading', { name: 'Backtest lab', level: 1 }).waitFor();
      expect(new URL(page.url()).search).toBe('?symbol=SPX&strategy=sma_crossover&start_date=2000-01-03&end_date=2020-04-17&initial_capital=10000&fast_period=10&slow_period=40');
      await expect.poll(() => page.getByLabel('Fast period').inputValue()).toBe('10');
      expect(await page.getByLabel('Slow period').inputValue()).toBe('40');
      expect(await page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      const totalReturn = page.locator('.metric-card', { has: page.getByText('Total return', { exact: true }) }).locator('.metric-card__value');
      await totalReturn.waitFor();
      expect(await totalReturn.innerText()).toBe(percent(cell.total_return));
      await shot('opened-in-lab');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('compares in sample with out of sample, draws a walk-forward, places a server refusal, and fits 375 px', async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 800 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'optimize-validation');
      await page.goto(`${server.origin}/optimize`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      await page.getByLabel('Fast period: from').fill('5');
      await page.getByLabel('Fast period: to').fill('50');
      await page.getByLabel('Fast period: step').fill('5');
      await page.getByLabel('Slow period: from').fill('20');
      await page.getByLabel('Slow period: to').fill('200');
      await page.getByLabel('Slow period: step').fill('20');

      // Hold out the last 30 %: the in-sample best cell beside its out-of-sample figures, and the warning when it is due.
      await page.getByLabel('Hold out the last part of the bars').check();
      await page.getByLabel('In-sample share (%)').fill('70');
      const split = page.waitForResponse('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      const splitAnswer = (await (await split).json()) as {
        skipped_cells: number;
        validation: { split_date: string; in_sample: { annualized_return: number }; out_of_sample: { annualized_return: number } };
      };
      expect(JSON.parse((await split).request().postData()!).validation).toEqual({ in_sample_fraction: 0.7 });
      expect(splitAnswer.skipped_cells).toBeGreaterThan(0);
      const comparison = page.getByRole('table', { name: 'Best in-sample cell: both periods' });
      await comparison.waitFor();
      expect(await comparison.locator('thead th').allInnerTexts()).toEqual(['Metric', 'In sample', 'Out of sample']);
      const { in_sample: before, out_of_sample: after } = splitAnswer.validation;
      const warned = before.annualized_return > 0 && (after.annualized_return < 0 || after.annualized_return < before.annualized_return / 2);
      expect(await page.getByText('Warning: Out of sample the best in-sample parameters').count()).toBe(warned ? 1 : 0);
      expect(await page.locator('.results__what').innerText()).toContain('(the in-sample part)');
      // Left-out pairs (fast ≥ slow) stay empty: the canvas is drawn all the same.
      await expect.poll(() => page.evaluate(CANVAS_COLOURS)).toBeGreaterThan(10);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await shot('split');

      // Held out from a date six bars before the end: too short for a 20-bar SMA to form, so no trade, said in words.
      await page.getByLabel('Hold out from a date on').check();
      await page.getByLabel('Held out from').fill('2020-04-09');
      const short = page.waitForResponse('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      const shortAnswer = (await (await short).json()) as { validation: { out_of_sample: { total_trades: number; total_return: number } } };
      expect(shortAnswer.validation.out_of_sample).toMatchObject({ total_trades: 0, total_return: 0 });
      await page
        .getByText(/^No trade in this window: the chosen parameters \(fast period \d+, slow period \d+\) never signalled between 2020-04-09 and 2020-04-17; its return is 0 by holding cash/)
        .waitFor();
      await shot('split-without-trade');

      // Walk-forward: the stitched out-of-sample chart and one row per window.
      await page.getByLabel('Walk-forward: optimise on rolling windows, test each on the next').check();
      await page.getByLabel('Number of windows').fill('4');
      const walk = page.waitForResponse('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      expect(JSON.parse((await walk).request().postData()!).validation).toEqual({ walk_forward: { windows: 4, in_sample_fraction: 0.7 } });
      expect((await walk).status()).toBe(200);
      const walkAnswer = (await (await walk).json()) as { validation: { walk_forward: { windows: { out_of_sample: { total_trades: number } }[] } } };
      await page.getByRole('img', { name: 'Stitched out-of-sample equity' }).locator('canvas').first().waitFor();
      // A window whose out-of-sample run made no trade is explained in words, not left at a bare 0.00 %.
      const idle = walkAnswer.validation.walk_forward.windows.filter((w) => w.out_of_sample.total_trades === 0).length;
      expect(await page.locator('.sweep-no-trade li').filter({ hasText: /^Window \d+: No trade in this window: the chosen parameters \(fast period \d+, slow period \d+\) never signalled between / }).count()).toBe(idle);
      await expect.poll(() => page.getByRole('table', { name: 'Windows' }).locator('tbody tr').count()).toBe(4);
      expect(await page.getByRole('table', { name: 'Windows' }).locator('tbody tr').first().locator('td').nth(2).innerText()).toMatch(/^Fast period \d+, slow period \d+$/);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual([]);
      await shot('walk-forward');

      // One parameter: a single row of cells.
      await page.getByLabel('None: sweep the whole period').check();
      await page.getByLabel('Second parameter').selectOption('');
      expect(await page.locator('output[name="cell-count"]').innerText()).toBe('10 cells (at most 10,000)');
      const single = page.waitForResponse('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      expect(JSON.parse((await single).request().postData()!).grid).toEqual({ fast_period: { min: 5, max: 50, step: 5 } });
      await expect.poll(() => page.locator('.heat-map__readout').innerText()).toMatch(/^Cell \d+ of 10 \(best cell\): Fast period \d+\. /);
      await expect.poll(() => page.evaluate(CANVAS_COLOURS)).toBeGreaterThan(5);
      expect(await page.locator('.top-cells-table thead th').allInnerTexts()).toContain('Fast period');
      await shot('one-parameter');

      // A minimum of trades above most cells': those are hatched and marked thin, never the best cell.
      const trades = ((await (await single).json()) as { cells: { total_trades: number }[] }).cells.map((cell) => cell.total_trades);
      const most = Math.max(...trades);
      expect(Math.min(...trades)).toBeLessThan(most);
      await page.getByLabel('Minimum trades').fill(String(most));
      const filtered = page.waitForResponse('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      expect(JSON.parse((await filtered).request().postData()!).min_trades).toBe(most);
      const filteredAnswer = (await (await filtered).json()) as { best: { total_trades: number; thin: boolean }; cells: { thin: boolean }[] };
      expect(filteredAnswer.best).toMatchObject({ total_trades: most, thin: false });
      const thinCount = filteredAnswer.cells.filter((cell) => cell.thin).length;
      expect(thinCount).toBeGreaterThan(0);
      await expect.poll(() => page.locator('.heat-legend').innerText()).toContain(`hatched: thin, fewer than ${most} trades: ranked below every cell with enough`);
      const rows = page.locator('.top-cells-table tbody tr');
      expect(await rows.first().innerText()).not.toContain('thin');
      expect(await page.locator('.top-cells-table__thin').count()).toBe(thinCount);
      expect(await page.locator('.top-cells-table__thin th').first().textContent()).toMatch(/^\d+ thin: fewer than \d+ trades: ranked below every cell with enough$/);
      expect(await page.locator('.results__what').innerText()).toContain(`with fewer than ${most} trades`);
      await shot('thin-cells');

      // A refusal from the server lands beside its field, as in the other lab forms.
      await page.getByLabel('Symbol').fill('ZZZZ');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      await expectFieldError(page, 'Symbol', 'We have no prices for ZZZZ. Pick a symbol from the list: type part of a ticker or name to search.');
      expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
    } finally {
      await browser.close();
    }
  });
});
