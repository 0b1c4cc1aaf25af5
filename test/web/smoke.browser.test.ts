import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';

describeInBrowser('the web app in Chromium', () => {
  let server: WebServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the app at / and at a deep link, under the CSP, without console errors', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}/`);
    await expect(page.getByRole('link', { name: 'tradelab' })).toBeTruthy();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goto(`${server.origin}/sign-in`);
    expect(await page.title()).toBe('Sign in · tradelab');
    await page.goto(`${server.origin}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(browser.errors).toEqual([]);
  });
});
