import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const entry = path.join(folder, name);
    if (statSync(entry).isDirectory()) return sourceFiles(entry);
    return /\.(ts|tsx|html)$/.test(name) && !name.endsWith('.test.ts') ? [entry] : [];
  });
}

/** What the web app must never do, checked in its source (docs/security.md §9). */
const FORBIDDEN: readonly [RegExp, string][] = [
  [/\blocalStorage\b|\bsessionStorage\b|\bindexedDB\b|document\.cookie/, 'script-readable storage (sessions live in an HttpOnly cookie)'],
  [/innerHTML|outerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write/, 'HTML built from strings'],
  [/\beval\s*\(|new Function\s*\(/, 'code built from strings'],
  [/<script(?![^>]*\bsrc=)[^>]*>/, 'inline script (the CSP refuses it)'],
];

describe('web app source', () => {
  const files = sourceFiles(path.resolve('src/web'));

  it('is found', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(FORBIDDEN.map(([pattern, why]) => ({ pattern, why })))('has no $why', ({ pattern }) => {
    const offenders = files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
