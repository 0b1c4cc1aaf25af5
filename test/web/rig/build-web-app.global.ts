import { buildWebApp } from '../../../scripts/build-web.mjs';

/**
 * Vitest global setup: builds the web app once, before any test file starts, when its sources are newer
 * than dist/web. Browser test files run in parallel and would otherwise race to rebuild the same folder.
 */
export default async function setup(): Promise<void> {
  await buildWebApp();
}
