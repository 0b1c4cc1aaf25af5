import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without type declarations
import { WEB_INPUTS } from '../../scripts/build-web.mjs';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const entry = path.join(folder, name);
    if (statSync(entry).isDirectory()) return sourceFiles(entry);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [entry] : [];
  });
}

/** `import { x } from '../../y'` (not `import type`, not `export type`): code the bundle takes from outside src/web. */
const VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.\.?\/[^']+)'/gm;

describe('the web build inputs', () => {
  it('cover every server file the web app bundles, so `npm start` and the browser tests rebuild when it changes', () => {
    const web = path.resolve('src/web');
    const outside = new Set<string>();
    for (const file of sourceFiles(web)) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(VALUE_IMPORT)) {
        const target = path.resolve(path.dirname(file), specifier!);
        if (!target.startsWith(web + path.sep)) outside.add(path.relative(process.cwd(), target).replace(/\.js$/, ''));
      }
    }
    expect(outside.size).toBeGreaterThan(0);
    const covered = (file: string) => (WEB_INPUTS as string[]).some((input) => file === input.replace(/\.ts$/, '') || file.startsWith(`${input}/`));
    expect([...outside].filter((file) => !covered(file))).toEqual([]);
  });
});
