/**
 * The soak: simulated people each running the whole journey (bench/soak/journey.ts) in a loop against a running
 * deployment, then every account checked against what its client was told (bench/soak/consistency.ts).
 *
 *   npm run bench:soak                                   both setups, 50 users, 60 s
 *   npm run bench:soak -- --seconds 5 --users 5          the short mode
 *   npm run bench:soak -- --setup sqlite                 one setup (postgres | sqlite | both)
 *
 * Setup A needs PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh schema is made and dropped).
 * Prints a markdown report per setup (for docs/benchmarks.md, "Soak") and writes bench/results/soak-latest.json
 * (soak-<users>u-<seconds>s-latest.json for other than 50 users and 60 s).
 * Exits 1 on any failed journey, any 5xx or unanswered request, or any inconsistent account.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { inconsistencies } from './consistency.js';
import { runJourney, type JourneyRecord } from './journey.js';
import { MailCatcher } from './mail-catcher.js';
import { cliName, sampleRss, type RssFigures } from './processes.js';
import { percentile, Recorder, round, type RouteFigures, type WaitFigures } from './recorder.js';
import { startPostgresSetup, startSqliteSetup, type RunningSetup, type SetupName } from './setups.js';
import { markdownReport } from './report.js';

/** After the last journey, how long to keep listening for a late duplicate mail before counting them. */
const LATE_MAIL_GRACE_MS = 3000;

export interface SoakResult {
  setup: SetupName;
  title: string;
  at: string;
  users: number;
  seconds_asked: number;
  seconds_ran: number;
  server: string;
  machine: { cpus: number; model: string | undefined; node: string };
  load_average_before: number[];
  load_average_after: number[];
  journeys_completed: number;
  journeys_failed: number;
  journey_p50_s: number;
  journey_p99_s: number;
  requests: number;
  requests_per_second: number;
  routes: RouteFigures[];
  waits: WaitFigures[];
  statuses: Record<string, number>;
  server_errors: number;
  forwarded: readonly number[] | null;
  rss: RssFigures[];
  failures: string[];
  inconsistencies: string[];
  accounts_checked: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '60' }, users: { type: 'string', default: '50' }, setup: { type: 'string', default: 'both' } },
  });
  const seconds = positive('--seconds', values.seconds);
  const users = positive('--users', values.users);
  const setups: SetupName[] = values.setup === 'both' ? ['postgres', 'sqlite'] : [values.setup as SetupName];
  if (!setups.every((s) => s === 'postgres' || s === 'sqlite')) throw new Error(`--setup is postgres, sqlite or both, not "${values.setup}"`);
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (setups.includes('postgres') && !databaseUrl) {
    throw new Error('Setup A needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL, or run --setup sqlite');
  }

  const results: SoakResult[] = [];
  for (const name of setups) {
    const mail = await MailCatcher.start();
    try {
      const setup = name === 'postgres' ? await startPostgresSetup(databaseUrl!, mail.url) : await startSqliteSetup(mail.url);
      try {
        console.error(`soak ${name}: ${users} users for ${seconds} s against ${setup.baseUrl} (${cliName})`);
        results.push(await soak(setup, mail, users, seconds));
      } finally {
        await setup.stop();
      }
    } finally {
      await mail.close();
    }
  }

  const dir = path.resolve(import.meta.dirname, '../results');
  fs.mkdirSync(dir, { recursive: true });
  // A shorter or smaller run does not replace the figures of the full one.
  const file = seconds === 60 && users === 50 ? 'soak-latest.json' : `soak-${users}u-${seconds}s-latest.json`;
  fs.writeFileSync(path.join(dir, file), `${JSON.stringify(results, null, 2)}\n`);
  console.log(results.map(markdownReport).join('\n'));
  console.error(`written to bench/results/${file}`);

  const failed = results.filter((r) => r.journeys_failed > 0 || r.server_errors > 0 || r.inconsistencies.length > 0 || r.journeys_completed === 0);
  if (failed.length > 0) {
    console.error(`SOAK FAILED: ${failed.map((r) => r.setup).join(', ')} (see the report above)`);
    process.exit(1);
  }
}

/** Runs `users` journey loops against the setup for `seconds`, lets the journeys under way finish, then checks. */
async function soak(setup: RunningSetup, mail: MailCatcher, users: number, seconds: number): Promise<SoakResult> {
  const recorder = new Recorder();
  const records: JourneyRecord[] = [];
  const failures: string[] = [];
  const journeyMs: number[] = [];
  const loadBefore = os.loadavg();
  const rss = sampleRss([
    ...setup.services.map((s) => ({ name: s.name, pid: s.child.pid! })),
    { name: setup.name === 'postgres' ? 'soak clients + balancer' : 'soak clients', pid: process.pid },
  ]);
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: users }, async () => {
      while (performance.now() < deadline) {
        const n = next++;
        const begin = performance.now();
        try {
          records.push(await runJourney(setup.baseUrl, n, mail, recorder));
          journeyMs.push(performance.now() - begin);
        } catch (error) {
          failures.push(`journey ${n}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }),
  );
  const ran = (performance.now() - started) / 1000;
  const rssFigures = rss.stop();
  const loadAfter = os.loadavg();
  await new Promise((resolve) => setTimeout(resolve, LATE_MAIL_GRACE_MS));
  const problems = await inconsistencies(setup.database.db, mail, records);

  journeyMs.sort((a, b) => a - b);
  const statuses = recorder.statuses();
  return {
    setup: setup.name,
    title: setup.title,
    at: new Date().toISOString(),
    users,
    seconds_asked: seconds,
    seconds_ran: round(ran),
    server: cliName,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    load_average_before: loadBefore.map((l) => Math.round(l * 100) / 100),
    load_average_after: loadAfter.map((l) => Math.round(l * 100) / 100),
    journeys_completed: records.length,
    journeys_failed: failures.length,
    journey_p50_s: round(percentile(journeyMs, 0.5) / 1000),
    journey_p99_s: round(percentile(journeyMs, 0.99) / 1000),
    requests: recorder.samples.length,
    requests_per_second: round(recorder.samples.length / ran),
    routes: recorder.byRoute(ran),
    waits: recorder.waitFigures(),
    statuses,
    server_errors: Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) >= 500 || status === '0' ? count : 0), 0),
    forwarded: setup.forwarded(),
    rss: rssFigures,
    failures,
    inconsistencies: problems,
    accounts_checked: records.length,
  };
}

function positive(flag: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} is a whole number ≥ 1, not "${value}"`);
  return number;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
