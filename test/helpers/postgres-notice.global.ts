/**
 * Vitest global setup: says once per run, before any test file starts, that the PostgreSQL half of the database
 * tests is skipped because TEST_DATABASE_URL is not set (test/helpers/dialects.ts skips it in each file, and in CI
 * refuses to run without it).
 */
export default function setup(): void {
  if (process.env.TEST_DATABASE_URL?.trim()) return;
  console.warn(
    [
      '',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '!! TEST_DATABASE_URL is not set: PostgreSQL tests are SKIPPED on this run.  !!',
      '!! Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them. !!',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '',
    ].join('\n'),
  );
}
