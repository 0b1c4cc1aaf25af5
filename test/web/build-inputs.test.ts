import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** The source file a relative specifier names: `./x.js` is `./x.ts` (or `.tsx`), as TypeScript resolves it. */
function sourceOf(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${from} imports ${specifier}, which is not a file`);
}

describe('the web build inputs', () => {
  it('cover every server file the web app bundles, also through other files, so `npm start` and the browser tests rebuild when it changes', () => {
    const web = path.resolve('src/web');
    const outside = new Set<string>();
    const queue = sourceFiles(web);
    const seen = new Set(queue);
    while (queue.length > 0) {
      const file = queue.pop()!;
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(VALUE_IMPORT)) {
        const target = sourceOf(file, specifier!);
        if (!target.startsWith(web + path.sep)) outside.add(path.relative(process.cwd(), target));
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    expect(outside.size).toBeGreaterThan(0);
    const covered = (file: string) => (WEB_INPUTS as string[]).some((input) => file === input || file.startsWith(`${input}/`));
    expect([...outside].filter((file) => !covered(file))).toEqual([]);
  });
});
