#!/usr/bin/env node
// Builds the web app (src/web → dist/web) with Vite, unless dist/web is newer than every input.
// `npm start` and the browser tests call this; `npm run build` always builds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/web/index.html');

function newestInput(entry) {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestInput(path.join(entry, name))));
}

/**
 * What the build reads: the app, its config and dependencies, and the server code it bundles as values (the
 * rule grammar for the strategy form's live check and the indicators it computes with, the per-symbol trade
 * statistics). Every file outside src/web that the app imports as a value, directly or through another such
 * file, must be covered here (test/web/build-inputs.test.ts checks).
 */
export const WEB_INPUTS = ['src/web', 'src/strategies/grammar', 'src/engine/indicators.ts', 'src/engine/replay/trade-stats.ts', 'src/engine/metrics.ts', 'src/engine/dates.ts', 'src/trading/money.ts', 'vite.config.ts', 'package-lock.json'];

export function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const inputs = WEB_INPUTS.map((name) => path.join(root, name)).filter(existsSync);
  return Math.max(...inputs.map(newestInput)) > statSync(builtIndex).mtimeMs;
}

export async function buildWebApp({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return false;
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), root: path.join(root, 'src/web') });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  const built = await buildWebApp({ force });
  console.log(built ? 'web app built into dist/web' : 'web app is up to date (dist/web)');
}
