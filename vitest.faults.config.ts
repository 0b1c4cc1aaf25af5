import { defineConfig } from 'vitest/config';

/**
 * The fault suite (`npm run test:faults`): the service through a PostgreSQL restart, an SMTP outage, workers
 * killed mid-job and a full disk, on real parts (a throwaway PostgreSQL cluster, an SMTP server, child processes,
 * a tmpfs). Apart from `npm test` because it starts and kills processes of its own; `.ci/run` runs it after.
 * One file at a time: the files time real outages and must not slow each other down.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.faults.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['verbose'] : ['default'],
  },
});
