import type { Config } from './platform/config.js';
import { systemClock } from './platform/clock.js';
import { databaseOptions, migrateToLatest, openDatabase } from './platform/db/database.js';
import { databaseRateLimiter } from './platform/rate-limit/rate-limiter.js';
import { createLogger } from './platform/logger.js';
import type { Platform } from './platform/platform.js';
import { buildApp } from './app.js';
import { createWorker } from './worker.js';

/** Serves HTTP and, unless told not to, runs the job worker in the same process. Stops cleanly on SIGINT/SIGTERM. */
export async function serve(config: Config, options: { worker: boolean }): Promise<void> {
  const app = await buildApp(config);
  const worker = options.worker ? createWorker(app.platform) : undefined;
  onShutdown(async () => {
    await worker?.stop();
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  worker?.worker.start();
}

/** Runs only the job worker: for scaling out with `serve --no-worker` front ends. */
export async function runWorker(config: Config): Promise<void> {
  const logger = createLogger(config);
  const database = openDatabase(databaseOptions(config));
  await migrateToLatest(database);
  const platform: Platform = {
    config,
    db: database.db,
    dialect: database.dialect,
    database,
    clock: systemClock,
    logger,
    rateLimiter: databaseRateLimiter(database.db, systemClock),
  };
  const worker = createWorker(platform);
  onShutdown(async () => {
    await worker.stop();
    await database.close();
  });
  worker.worker.start();
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
