import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, type BrowserSession } from './rig/chromium.js';
import { startWebServer, type WebServer } from './rig/server.js';
import { UNLABELLED_CONTROLS } from './rig/controls.js';

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
    const response = await page.goto(`${server.origin}/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { level: 1, name: 'Backtest lab' }).waitFor();
    await page.goto(`${server.origin}/sign-in`);
    expect(await page.title()).toBe('Sign in · tradelab');
    // In-app navigation moves focus to the new page: its heading where the page says so, else <main>.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compare strategies' }).waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.tagName')).toBe('H1');
    await page.goto(`${server.origin}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(browser.errors).toEqual([]);
  });

  it('gives every control on every signed-out page an accessible name, and fits a 375 px screen', async () => {
    const { page } = browser;
    const pages = [
      '/',
      '/compare',
      '/optimize',
      '/sign-up',
      '/sign-in',
      '/recover',
      '/verify-email?token=x',
      '/recover?token=x',
      '/devices',
      // Signed out, the library's pages say so and link to sign-in (they fetch nothing).
      '/library',
      '/library/new',
      '/library/edit?id=1',
      '/library/backtest?id=1',
      '/compliance',
    ];
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of pages) {
        await page.goto(`${server.origin}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(UNLABELLED_CONTROLS), path).toEqual([]);
        // Nothing wider than the screen: no sideways scrolling of the page.
        expect(await page.evaluate('document.documentElement.scrollWidth'), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    // The check itself finds an unlabelled control.
    await page.evaluate(`document.querySelector('main').append(document.createElement('input'))`);
    expect(await page.evaluate(UNLABELLED_CONTROLS)).toEqual(['<input>']);
    // /recover?token=x checks its (made-up) link on load: the one refusal Chromium logs, once per width, is that 404.
    const notFound = 'console: Failed to load resource: the server responded with a status of 404 (Not Found)';
    expect(browser.errors).toEqual([notFound, notFound]);
  });
});
