/**
 * The layout of src/, held by its imports (docs/architecture.md, "Layout"):
 *   - pure code (the engine, the rule grammar, the strategy policy, the compliance rules) imports only pure code:
 *     no Fastify, no Kysely, no platform, no feature; src/engine imports nothing outside itself;
 *   - src/platform imports no feature;
 *   - the web app takes values from outside src/web only from pure code (everything else type-only);
 *   - tests in src/ import test data from test/fixtures, never the harness in test/helpers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Pure code: folders end with '/', files are named whole. Paths relative to the repository. */
const PURE_CODE = [
  'src/engine/',
  'src/strategies/grammar/',
  'src/strategies/strategy-policy.ts',
  'src/compliance/compliance-rules.ts',
  'src/compliance/occ-symbol.ts',
  'src/trading/money.ts',
  'src/trading/fills.ts',
];

const FEATURES = ['auth', 'admin', 'backtest', 'cli', 'compliance', 'health', 'market', 'privacy', 'strategies', 'trading', 'web'];

interface Import {
  readonly from: string;
  /** Repository-relative file for a relative specifier, else the package name as written. */
  readonly target: string;
  readonly typeOnly: boolean;
}

const isPure = (file: string) => PURE_CODE.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const inFolder = (file: string, folder: string) => file.startsWith(`${folder}/`);

/** What each rule says of one import, or null when the import is fine. */
function layoutProblem({ from, target, typeOnly }: Import): string | null {
  const local = target.startsWith('src/') || target.startsWith('test/');
  if (isTest(from)) {
    return inFolder(from, 'src') && inFolder(target, 'test/helpers') ? 'a test in src/ imports the test harness (use test/fixtures)' : null;
  }
  if (isPure(from)) {
    if (inFolder(from, 'src/engine') && !inFolder(target, 'src/engine')) return 'src/engine imports something outside src/engine';
    if (!local || !isPure(target)) return 'pure code imports something that is not pure code';
    return null;
  }
  if (inFolder(from, 'src/platform') && FEATURES.some((feature) => inFolder(target, `src/${feature}`))) {
    return 'the platform imports a feature';
  }
  if (inFolder(from, 'src/web') && inFolder(target, 'src') && !inFolder(target, 'src/web') && !typeOnly && !isPure(target)) {
    return 'the web app bundles server code that is not pure (import it type-only)';
  }
  return null;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const entry = path.join(folder, name);
    if (statSync(entry).isDirectory()) return sourceFiles(entry);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [entry] : [];
  });
}

/** The file a relative specifier names, as TypeScript resolves it (`./x.js` is `./x.ts`, a folder its index). */
function resolveSpecifier(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(path.join(ROOT, from)), specifier).replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return path.relative(ROOT, candidate);
    } catch {
      // not this candidate
    }
  }
  return path.relative(ROOT, base);
}

/** Every import and re-export of `file` (static and `import()`), each marked type-only or not. */
function importsOf(file: string, source: string): Import[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) =>
    found.push({ from: file, target: specifier.startsWith('.') ? resolveSpecifier(file, specifier) : specifier, typeOnly });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const everyNameTypeOnly = !clause?.name && named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier.text, Boolean(clause?.isTypeOnly) || everyNameTypeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!)) {
      add((node.arguments[0] as ts.StringLiteral).text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function violations(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    importsOf(file, read(file)).flatMap((entry) => {
      const problem = layoutProblem(entry);
      return problem ? [`${entry.from} → ${entry.target}${entry.typeOnly ? ' (type)' : ''}: ${problem}`] : [];
    }),
  );
}

describe('the layout of src/', () => {
  it('holds: pure code imports only pure code, the platform no feature, the web app only pure server code as values', () => {
    const files = sourceFiles(path.join(ROOT, 'src')).map((file) => path.relative(ROOT, file));
    expect(files.length).toBeGreaterThan(100);
    expect(violations(files, (file) => readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('every pure-code entry names code that exists', () => {
    for (const entry of PURE_CODE) expect(statSync(path.join(ROOT, entry)).isFile() || statSync(path.join(ROOT, entry)).isDirectory(), entry).toBe(true);
  });

  it.each([
    ['src/engine/indicators.ts', "import { BadRequest } from '../platform/errors.js';", 'src/engine imports something outside src/engine'],
    ['src/engine/metrics.ts', "import type { Db } from '../platform/db/database.js';", 'src/engine imports something outside src/engine'],
    ['src/strategies/grammar/parse.ts', "import { Type } from 'typebox';", 'pure code imports something that is not pure code'],
    ['src/compliance/compliance-rules.ts', "import type { Strategy } from '../strategies/strategies.schema.js';", 'pure code imports something that is not pure code'],
    ['src/strategies/strategy-policy.ts', "import { sql } from 'kysely';", 'pure code imports something that is not pure code'],
    ['src/platform/jobs/worker.ts', "import { issueSession } from '../../auth/sessions.service.js';", 'the platform imports a feature'],
    ['src/web/library/types.ts', "import { STRATEGY_LIST_MAX_LIMIT } from '../../strategies/strategies.schema';", 'the web app bundles server code that is not pure (import it type-only)'],
    ['src/engine/replay/replay.golden.test.ts', "import { buildTestApp } from '../../../test/helpers/app.js';", 'a test in src/ imports the test harness (use test/fixtures)'],
  ])('refuses a planted bad import in %s', (file, line, problem) => {
    expect(violations([file], () => line)).toEqual([expect.stringContaining(problem)]);
  });

  it('lets pure code import pure code, and the web app take types from anywhere and values from pure code', () => {
    const allowed: [string, string][] = [
      ['src/compliance/compliance-rules.ts', "import { calendarDaysBetween } from '../engine/dates.js';"],
      ['src/strategies/grammar/functions.ts', "import { sma } from '../../engine/indicators.js';"],
      ['src/web/library/types.ts', "import type { Strategy } from '../../strategies/strategies.schema';"],
      ['src/web/library/types.ts', "import { type Strategy } from '../../strategies/strategies.schema';"],
      ['src/web/library/rule-editor.tsx', "import { ruleProblem } from '../../strategies/grammar/index';"],
      ['src/engine/engine.test.ts', "import { loadSpxBars } from '../../test/fixtures/bar-series.js';"],
    ];
    for (const [file, line] of allowed) expect(violations([file], () => line), line).toEqual([]);
  });
});
