import type { Config } from './platform/config.js';
import { systemClock } from './platform/clock.js';
import { databaseOptions, migrateToLatest, openDatabase } from './platform/db/database.js';
import { claimSqliteServerLock } from './platform/db/sqlite-server-lock.js';
import { createLogger } from './platform/logger.js';
import { assemblePlatform } from './platform/platform.js';
import { buildApp } from './app.js';
import { createJobRunner } from './job-runner.js';
import { loadDemoDataIfEmpty } from './market/bar-store.service.js';

/**
 * Serves HTTP and, unless told not to, runs the job worker in the same process. On SQLite it first claims the
 * data directory: a second server on the same file is refused. Stops on SIGINT/SIGTERM: no new connections,
 * jobs and requests in hand finish, connections still open at `shutdownTimeoutMs` are closed, and the database
 * closes only once every handler has returned.
 */
export async function serve(config: Config, options: { worker: boolean }): Promise<void> {
  const lock = config.databaseUrl === null ? claimSqliteServerLock(config.dataDir) : undefined;
  const database = openDatabase(databaseOptions(config));
  const app = await buildApp(config, { database });
  await loadDemoDataIfEmpty(app.platform.db, app.platform.clock, app.log);
  const jobs = options.worker ? createJobRunner(app.platform) : undefined;
  onShutdown(config.shutdownTimeoutMs, async () => {
    const closeConnections = setTimeout(() => {
      app.log.warn(`connections still open ${config.shutdownTimeoutMs} ms after the signal: closing them`);
      app.server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    await Promise.all([jobs?.stop(), app.close()]);
    clearTimeout(closeConnections);
    await database.close();
    lock?.release();
  });
  await app.listen({ port: config.port, host: config.host });
  jobs?.start();
  // For the person who typed `npm start`; a log collector has the JSON "Server listening" line.
  if (process.stdout.isTTY) console.log(`tradelab is serving ${config.publicOrigin}`);
}

/** Runs only the job worker: for scaling out with `serve --no-worker` front ends. */
export async function runWorker(config: Config): Promise<void> {
  const database = openDatabase(databaseOptions(config));
  await migrateToLatest(database);
  const platform = assemblePlatform({ config, database, clock: systemClock, logger: createLogger(config) });
  const jobs = createJobRunner(platform);
  onShutdown(config.shutdownTimeoutMs, async () => {
    await jobs.stop();
    await platform.close();
    await database.close();
  });
  jobs.start();
}

/** Past the deadline, work still not done (a handler that never returns) must not keep the process alive. */
const GIVE_UP_AFTER_DEADLINE_MS = 20_000;

function onShutdown(deadlineMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal} received: finishing work in hand, then stopping`);
    setTimeout(() => {
      console.error(`still stopping ${deadlineMs + GIVE_UP_AFTER_DEADLINE_MS} ms after ${signal}: exiting without waiting further`);
      process.exit(1);
    }, deadlineMs + GIVE_UP_AFTER_DEADLINE_MS).unref();
    stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => handle('SIGINT'));
  process.once('SIGTERM', () => handle('SIGTERM'));
}
