import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, screenshotTaker } from './rig/chromium.js';
import { UNLABELLED_CONTROLS } from './rig/controls.js';
import { failedLoad } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

interface ReportAnswer {
  initial_capital: number;
  dates: string[];
  total_trades: number;
  report: { monthly_returns: { year: number; month: number; return: number }[]; yearly_returns: { year: number; return: number }[]; worst_drawdowns: unknown[] };
}

interface MonteCarloAnswer {
  runs: number;
  probability_of_loss: number;
  final_equity: { p5: number; p50: number; p95: number };
}

const percent = (value: number) => new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'negative' }).format(value);
const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', signDisplay: 'negative' }).format(value);

/** RFC 4180 as the app writes it: CRLF line ends, no field of these files is quoted. */
function csvRows(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}

/** The text of every cell of the round trips table, row by row. */
function shownTrips(page: Page): Promise<string[][]> {
  return page.locator('.round-trips-table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

describeInBrowser('the backtest report in Chromium', () => {
  let server: WebServer;

  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a lab backtest, opens its report (monthly table, drawdowns), downloads the trades and the daily equity as CSV, runs a Monte Carlo (busy first) and prints', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'report');
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');

      const answered = page.waitForResponse('**/api/backtest');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      const response = await answered;
      const backtestBody = response.request().postDataJSON() as Record<string, unknown>;
      expect(backtestBody.report).toBe(true);
      const answer = (await response.json()) as ReportAnswer;

      // The Report tab: a row per year, each month's figure as the answer gives it, coloured.
      const reportTab = page.getByRole('tab', { name: 'Report' });
      await reportTab.click();
      expect(await reportTab.getAttribute('aria-selected')).toBe('true');
      const monthly = page.getByRole('table', { name: /Monthly returns/ });
      await expect.poll(() => monthly.locator('tbody tr').count()).toBe(new Set(answer.report.monthly_returns.map((entry) => entry.year)).size);
      const first = answer.report.monthly_returns[0]!;
      const firstRow = monthly.locator('tbody tr', { has: page.getByRole('rowheader', { name: String(first.year), exact: true }) });
      const firstCell = firstRow.locator('td').nth(first.month - 1);
      expect(await firstCell.innerText()).toBe(percent(first.return));
      expect(await firstCell.evaluate((cell) => cell.style.backgroundColor)).toMatch(/^rgb\(/);
      const firstYear = answer.report.yearly_returns.find((entry) => entry.year === first.year)!;
      expect(await firstRow.locator('td').last().innerText()).toBe(percent(firstYear.return));
      expect(await monthly.locator('thead th[scope="col"]').count()).toBe(14);
      const drawdowns = page.getByRole('table', { name: /deepest drawdowns|only drawdown/ });
      expect(await drawdowns.locator('tbody tr').count()).toBe(Math.min(5, answer.report.worst_drawdowns.length));
      await expect.poll(() => page.locator('.chart--rolling canvas').count()).toBeGreaterThan(0);
      await shot('report-tab');

      // Arrow keys move between the tabs.
      await reportTab.focus();
      await page.keyboard.press('ArrowLeft');
      expect(await page.getByRole('tab', { name: 'Summary' }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Summary');

      // The trades file holds the round trips the table shows, in the same order.
      const trips = await shownTrips(page);
      expect(trips.length).toBe(answer.total_trades);
      const downloaded = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download trades (CSV)' }).click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe('tradelab-SPX-SMA-Crossover-2000-01-03-to-2020-04-17-trades.csv');
      const [header, ...rows] = csvRows(await readFile((await download.path())!, 'utf8'));
      expect(header).toEqual(['entry_date', 'entry_price', 'exit_date', 'exit_price', 'shares', 'pnl', 'return', 'commission', 'exit_reason', 'bars']);
      expect(rows.length).toBe(trips.length);
      rows.forEach((row, index) => {
        const shown = trips[index]!;
        expect([row[0], money(Number(row[1])), row[2], money(Number(row[3])), money(Number(row[5])), percent(Number(row[6]))]).toEqual([shown[0], shown[1], shown[2], shown[3], shown[5], shown[6]]);
      });

      const equityDownloaded = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download daily equity (CSV)' }).click();
      const equityFile = await equityDownloaded;
      expect(equityFile.suggestedFilename()).toBe('tradelab-SPX-SMA-Crossover-2000-01-03-to-2020-04-17-daily-equity.csv');
      const equityRows = csvRows(await readFile((await equityFile.path())!, 'utf8'));
      expect(equityRows[0]).toEqual(['date', 'equity', 'drawdown']);
      expect(equityRows.slice(1).map((row) => row[0])).toEqual(answer.dates);
      expect(Number(equityRows[1]![1])).toBe(answer.initial_capital);

      // Monte Carlo: a full queue says to try again; the next press answers with the fan chart.
      await page.getByRole('tab', { name: 'Monte Carlo' }).click();
      await page.getByLabel('Runs', { exact: true }).fill('500');
      await page.getByLabel('Seed', { exact: true }).fill('7');
      await page.getByLabel('Shuffle', { exact: true }).check();
      await page.route('**/api/backtest/monte-carlo', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'busy', message: 'The worker queue is full.' }) }), { times: 1 });
      await page.getByRole('button', { name: 'Run Monte Carlo' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/busy .*Try again in a few seconds/);
      const simulated = page.waitForResponse('**/api/backtest/monte-carlo');
      await page.getByRole('button', { name: 'Run Monte Carlo' }).click();
      const mcResponse = await simulated;
      const { report: _report, ...backtestRequest } = backtestBody;
      expect(mcResponse.request().postDataJSON()).toEqual({ ...backtestRequest, runs: 500, seed: 7, method: 'shuffle' });
      expect(mcResponse.status()).toBe(200);
      const mc = (await mcResponse.json()) as MonteCarloAnswer;
      const fan = page.getByRole('img', { name: /Equity after each trade/ });
      await expect.poll(() => fan.count()).toBe(1);
      for (const part of ['outer', 'inner', 'median', 'actual']) expect(await fan.locator(`.fan-chart__${part}`).getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
      expect(await page.locator('.monte-carlo__loss').innerText()).toMatch(mc.probability_of_loss === 0 ? /^None of the 500 resampled runs/ : new RegExp(`^${percent(mc.probability_of_loss).replace('.', '\\.')} of the 500`));
      const percentiles = page.getByRole('table', { name: /Percentiles over the resampled runs/ });
      expect(await percentiles.getByRole('row', { name: /Final equity/ }).locator('td').first().innerText()).toBe(money(mc.final_equity.p5));
      await shot('monte-carlo');

      // On screen the header has no title or data line; they are for paper.
      expect(await page.locator('.run-header').innerText()).toMatch(/^SMA Crossover on SPX/);

      // Print: "Print report" shows every tab at the page's width before printing; on paper no navigation, form or button.
      await page.evaluate(`window.print = () => { window.printedPanels = [...document.querySelectorAll('[role="tabpanel"]')].filter((panel) => !panel.hidden).length; }`);
      await page.getByRole('button', { name: 'Print report' }).click();
      await expect.poll(() => page.evaluate('window.printedPanels')).toBe(3);
      await page.emulateMedia({ media: 'print' });
      for (const hidden of ['.site-header', 'form', 'button', '[role="tablist"]']) expect(await page.locator(hidden).first().isVisible()).toBe(false);
      const printHeader = page.locator('.run-header');
      await expect.poll(() => printHeader.innerText()).toMatch(/^tradelab backtest report\s+SMA Crossover on SPX, 2000-01-03 to 2020-04-17[\s\S]*No costs assumed[\s\S]*Data: SPX from demo data, stored to 2020-04-17\.$/);
      // At the width of the printed page (A4 less 15 mm margins, 680 px), nothing is wider than the page.
      await page.setViewportSize({ width: 680, height: 900 });
      const wider = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().width > 0 && element.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((element) => element.tagName + '.' + element.className)`,
      );
      expect(wider).toEqual([]);
      await shot('printed');
      await page.emulateMedia({ media: 'screen' });

      expect(browser.errors).toEqual([failedLoad(503, 'Service Unavailable')]);
    } finally {
      await browser.close();
    }
  });

  it('fits a phone: every tab of a result at 375 px without sideways scroll, every control labelled', async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 800 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'report-375');
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      for (const name of ['Report', 'Monte Carlo', 'Summary']) {
        await page.getByRole('tab', { name }).click();
        if (name === 'Report') await page.locator('.chart--rolling canvas').first().waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(375);
        expect(await page.evaluate(UNLABELLED_CONTROLS), name).toEqual([]);
      }
      await page.getByRole('tab', { name: 'Report' }).click();
      await shot('report');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
