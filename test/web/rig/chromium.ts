import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`), or CHROMIUM_PATH. Playwright's own browser download is never used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

/** The flags every browser test runs Chromium with. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/**
 * `describe` for browser tests. Without Chromium they are skipped, loudly; under CI (CI=true) a missing
 * Chromium fails the run instead, so CI never skips them.
 */
export function describeInBrowser(title: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(title, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(title, () => {
      throw new Error(`CI=true but Chromium is missing at ${CHROMIUM_PATH}: browser tests must run in CI (apt-get install chromium)`);
    });
    return;
  }
  const banner = '!'.repeat(100);
  console.warn(
    `\n${banner}\n!! SKIPPED browser tests "${title}": no Chromium at ${CHROMIUM_PATH}.\n` +
      `!! Install it (apt-get install chromium) or set CHROMIUM_PATH. CI runs them.\n${banner}\n`,
  );
  describe.skip(`${title} [SKIPPED: no Chromium at ${CHROMIUM_PATH}]`, body);
}

export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught page errors seen so far, as text. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** Launches Chromium with a fresh user-data directory and one page whose console errors are collected. */
export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'tradelab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Screenshots numbered in the order taken, into test-output/browser/<suite>/. */
export function screenshotTaker(page: Page, suite: string): (step: string) => Promise<void> {
  const folder = path.resolve('test-output/browser', suite);
  let count = 0;
  return async (step) => {
    count += 1;
    await mkdir(folder, { recursive: true });
    const name = `${String(count).padStart(2, '0')}-${step}.png`;
    await fullPageScreenshot(page, path.join(folder, name));
  };
}

/**
 * A screenshot of the whole page that leaves the page scrolled where it was. Chromium's full-page capture leaves it
 * scrolled to the end when an element other than the body has focus (a results heading after a run), and jumps back
 * at the next re-render: a pointer aimed in between would miss.
 */
export async function fullPageScreenshot(page: Page, file: string): Promise<void> {
  const scrolled = await page.evaluate('scrollY');
  await page.screenshot({ path: file, fullPage: true });
  await page.evaluate(`scrollTo(0, ${scrolled})`);
}
