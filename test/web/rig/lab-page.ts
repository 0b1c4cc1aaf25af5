import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';

/** What Chromium logs to the console for any fetch answered with an error status; the app logs nothing itself. */
export const failedLoad = (status: number, text: string) =>
  `console: Failed to load resource: the server responded with a status of ${status} (${text})`;

/** Holds the next matching request until `release` is called, so a test can look at the page while it is in flight. */
export async function holdNext(page: Page, url: string): Promise<{ release: () => Promise<void> }> {
  let held: (route: Route) => void;
  const arrived = new Promise<Route>((resolve) => (held = resolve));
  await page.route(url, (route) => held(route), { times: 1 });
  return { release: async () => (await arrived).continue() };
}

/** The control labelled `label` is marked invalid and described by `message` (its error beside it). */
export async function expectFieldError(page: Page, label: string, message: string): Promise<void> {
  const control = page.getByLabel(label, { exact: true });
  await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(describedBy.split(' ').map((id) => page.locator(`[id="${id}"]`).innerText()));
  expect(texts).toContain(message);
}
