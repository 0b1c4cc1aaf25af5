import { execFile } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * Without TEST_DATABASE_URL the PostgreSQL half of every database test is skipped, and the run says so once,
 * loudly, rather than once for each test file. Runs vitest on two database test files, without the variable.
 */
it('prints the "PostgreSQL tests skipped" notice once per run, not once per file', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_DATABASE_URL: '', CI: '' };
  const { stdout, stderr } = await run(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', 'test/platform/http/timeouts.test.ts', 'test/platform/http/busy-database.test.ts'],
    { env, maxBuffer: 16 * 1024 * 1024 },
  );
  const output = stripVTControlCharacters(stdout + stderr);
  expect(output).toMatch(/Test Files\s+2 passed/);
  expect(output.match(/PostgreSQL tests are SKIPPED/g)).toHaveLength(1);
}, 120_000);
