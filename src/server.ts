import type { Config } from './platform/config.js';
import { systemClock } from './platform/clock.js';
import { databaseOptions, migrateToLatest, openDatabase } from './platform/db/database.js';
import { createLogger } from './platform/logger.js';
import { assemblePlatform } from './platform/platform.js';
import { buildApp } from './app.js';
import { createJobRunner } from './job-runner.js';
import { loadDemoDataIfEmpty } from './market/bar-store.service.js';

/** Serves HTTP and, unless told not to, runs the job worker in the same process. Stops cleanly on SIGINT/SIGTERM. */
export async function serve(config: Config, options: { worker: boolean }): Promise<void> {
  const app = await buildApp(config);
  await loadDemoDataIfEmpty(app.platform.db, app.platform.clock, app.log);
  const jobs = options.worker ? createJobRunner(app.platform) : undefined;
  onShutdown(async () => {
    await jobs?.stop();
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  jobs?.start();
}

/** Runs only the job worker: for scaling out with `serve --no-worker` front ends. */
export async function runWorker(config: Config): Promise<void> {
  const database = openDatabase(databaseOptions(config));
  await migrateToLatest(database);
  const platform = assemblePlatform({ config, database, clock: systemClock, logger: createLogger(config) });
  const jobs = createJobRunner(platform);
  onShutdown(async () => {
    await jobs.stop();
    await platform.close();
    await database.close();
  });
  jobs.start();
}

function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal} received: finishing work in hand, then stopping`);
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
