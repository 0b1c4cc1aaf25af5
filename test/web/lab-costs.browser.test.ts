import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, screenshotTaker } from './rig/chromium.js';
import { failedLoad } from './rig/lab-page.js';
import { startWebServer, type WebServer } from './rig/server.js';

interface CostedAnswer {
  costs_paid: { commission: number; slippage: number };
  benchmark: { symbol: string; total_return: number; equity_curve: number[] };
  trades: { type: 'BUY' | 'SELL'; exit_reason?: string; commission: number }[];
}

/** Whether any pixel of the canvases inside `figure` is this colour (within a little anti-aliasing). */
async function drawsColour(figure: Locator, hex: string): Promise<boolean> {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return figure.evaluate(
    (element, [red, green, blue]) =>
      [...element.querySelectorAll('canvas')].some((canvas) => {
        if (canvas.width === 0 || canvas.height === 0) return false;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! > 200 && Math.abs(data[i]! - red!) < 6 && Math.abs(data[i + 1]! - green!) < 6 && Math.abs(data[i + 2]! - blue!) < 6) return true;
        }
        return false;
      }),
    [r, g, b],
  );
}

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

function card(page: Page, label: string): Locator {
  return page.locator('.metric-card', { has: page.getByText(label, { exact: true }) }).locator('.metric-card__value');
}

describeInBrowser('costs, sizing, exits and the benchmark in Chromium', () => {
  let server: WebServer;

  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs the lab with a cost preset and a stop: the costs in the summary, the benchmark line, the fills marked, round trips; the address reproduces it and Back returns to it', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      const shot = screenshotTaker(page, 'lab-costs');
      const bodies: Record<string, unknown>[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/backtest')) bodies.push(request.postDataJSON() as Record<string, unknown>);
      });
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');

      // A preset fills the cost fields; editing one makes the choice "custom".
      const preset = page.getByLabel('Trading costs');
      expect(await preset.inputValue()).toBe('none');
      await preset.selectOption({ label: 'Per share: $0.005, $1 minimum' });
      expect(await page.getByLabel('Commission per share ($)').inputValue()).toBe('0.005');
      expect(await page.getByLabel('Minimum per order ($)').inputValue()).toBe('1');
      await page.getByLabel('Slippage (bp)').fill('5');
      expect(await preset.inputValue()).toBe('custom');
      await page.getByLabel('Stop loss (%)').fill('8');
      await page.getByLabel('Position size').selectOption('percent_of_equity');
      await page.getByLabel('Percent of equity (%)').fill('90');

      const answered = page.waitForResponse('**/api/backtest');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      const answer = (await (await answered).json()) as CostedAnswer;
      expect(bodies.at(-1)).toMatchObject({
        costs: { commission_per_share: 0.005, commission_pct: 0, commission_min: 1, slippage_bps: 5 },
        sizing: { mode: 'percent_of_equity', value: 0.9 },
        exits: { stop_loss_pct: -0.08, take_profit_pct: null, trailing_stop_pct: null },
        benchmark: 'SPX',
      });

      // The summary says what the costs took, as the answer does.
      await page.getByText('Costs assumed: $0.005 a share, at least $1.00 an order, 5 bp slippage.').waitFor();
      expect(answer.costs_paid.commission).toBeGreaterThan(0);
      expect(answer.costs_paid.slippage).toBeGreaterThan(0);
      expect(await card(page, 'Commission paid').innerText()).toBe(money(answer.costs_paid.commission));
      expect(await card(page, 'Slippage paid').innerText()).toBe(money(answer.costs_paid.slippage));
      const percent = (value: number) => new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
      expect(await card(page, 'Buy and hold return').innerText()).toBe(percent(answer.benchmark.total_return));
      expect(await page.getByText('No costs assumed', { exact: false }).count()).toBe(0);

      // The benchmark's line beside the strategy's, named in the legend and drawn in its colour.
      const equity = page.locator('figure', { has: page.getByRole('img', { name: 'Equity curve' }) });
      expect(await equity.getByRole('list', { name: 'Legend' }).getByRole('listitem').allInnerTexts()).toEqual(['Strategy', 'Benchmark: SPX held']);
      await expect.poll(() => drawsColour(equity, '#D55E00')).toBe(true);

      // The price as candles with a marker at every fill: buys in blue, sells in orange.
      const buys = answer.trades.filter((trade) => trade.type === 'BUY').length;
      const price = page.locator('figure', { has: page.getByRole('img', { name: 'Price and fills' }) });
      await price.getByText(`${buys} buys (arrows up, below the bar) and ${answer.trades.length - buys} sells`, { exact: false }).waitFor();
      await expect.poll(() => drawsColour(price, '#1f5fbf')).toBe(true);
      await expect.poll(() => drawsColour(price, '#E69F00')).toBe(true);
      await price.scrollIntoViewIfNeeded();
      await shot('results');

      // Round trips with their exit reasons; the stop sold some of them. The raw fills are behind a toggle.
      const reasons = await page.locator('.round-trips-table tbody tr td:nth-child(8)').allInnerTexts();
      expect(reasons.length).toBe(Math.min(100, buys));
      expect(answer.trades.some((trade) => trade.exit_reason === 'stop_loss')).toBe(true);
      expect(new Set(reasons)).toContain('Stop loss');
      expect(await page.locator('.fills-table').count()).toBe(0);
      await page.getByRole('button', { name: /^Show the fills/ }).click();
      expect(await page.locator('.fills-table tbody tr').count()).toBe(Math.min(100, answer.trades.length));

      // The address carries the run; a reload runs it again with the same settings.
      const costed = new URL(page.url()).search;
      expect(costed).toContain('commission_per_share=0.005&commission_min=1&slippage_bps=5&sizing=percent_of_equity&sizing_value=90&stop_loss=8');
      const sent = bodies.length;
      await page.reload();
      await page.getByText('Costs assumed: $0.005 a share, at least $1.00 an order, 5 bp slippage.').waitFor();
      expect(bodies.length).toBe(sent + 1);
      expect(bodies.at(-1)).toEqual(bodies.at(-2));
      expect(await page.getByLabel('Stop loss (%)').inputValue()).toBe('8');
      expect(await page.getByLabel('Percent of equity (%)').inputValue()).toBe('90');

      // A second run without costs says so plainly; Back returns to the costed one.
      await page.getByLabel('Trading costs').selectOption({ label: 'No costs' });
      await page.getByLabel('Stop loss (%)').fill('');
      await page.getByRole('button', { name: 'Run backtest' }).click();
      await page.getByText('No costs assumed: every fill at the open, no commission, no slippage.').waitFor();
      expect(await card(page, 'Commission paid').innerText()).toBe('$0.00');
      expect(new URL(page.url()).search).not.toContain('commission');
      await page.goBack();
      await page.getByText('Costs assumed: $0.005 a share, at least $1.00 an order, 5 bp slippage.').waitFor();
      expect(new URL(page.url()).search).toBe(costed);
      expect(await page.getByLabel('Slippage (bp)').inputValue()).toBe('5');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('sends the settings from the comparison and Optimize too, and refuses a bad one beside its field', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    try {
      const { page } = browser;
      await page.goto(`${server.origin}/compare`);
      await page.getByLabel('Trading costs').selectOption({ label: 'Flat $4.95 per order' });
      const compared = page.waitForRequest('**/api/compare-strategies');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      expect((await compared).postDataJSON()).toMatchObject({ costs: { commission_min: 4.95, commission_per_share: 0, slippage_bps: 0 }, benchmark: 'SPX' });
      await page.getByText('Costs assumed: $4.95 an order.').waitFor();
      expect(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').last().innerText()).toMatch(/^Benchmark: SPX held/);

      // A client-side check: slippage above 1,000 bp is refused beside its field, nothing sent.
      await page.getByLabel('Slippage (bp)').fill('2000');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      expect(await page.getByLabel('Slippage (bp)').getAttribute('aria-invalid')).toBe('true');
      await page.getByText('Enter basis points from 0 to 1,000, such as 5.').waitFor();

      // The server's refusal of an unknown benchmark lands beside the benchmark field.
      await page.getByLabel('Slippage (bp)').fill('0');
      await page.getByLabel('Benchmark').fill('ZZZZ');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      await expect.poll(() => page.getByLabel('Benchmark').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Symbol').getAttribute('aria-invalid')).toBe('false');
      expect(browser.errors).toEqual([failedLoad(404, 'Not Found')]);
      browser.errors.length = 0;
      await page.getByLabel('Benchmark').fill('');

      await page.goto(`${server.origin}/optimize`);
      await expect.poll(() => page.getByLabel('Strategy template').inputValue()).toBe('sma_crossover');
      await page.getByLabel('Trading costs').selectOption({ label: 'US discount broker: $0 commission, 5 bp slippage' });
      await page.getByLabel('Trailing stop (%)').fill('12');
      const swept = page.waitForRequest('**/api/backtest/sweep');
      await page.getByRole('button', { name: 'Run sweep' }).click();
      expect((await swept).postDataJSON()).toMatchObject({
        costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 5 },
        sizing: { mode: 'all_in' },
        exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: 0.12 },
        benchmark: 'SPX',
      });
      await page.locator('.top-cells-table').waitFor();
      // A cell's link opens the lab with the same settings.
      const link = page.locator('.top-cells-table a').first();
      expect(await link.getAttribute('href')).toContain('slippage_bps=5&trailing_stop=12');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
