#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from './platform/config.js';
import { databaseOptions, migrateToLatest, openDatabase } from './platform/db/database.js';
import { runWorker, serve } from './server.js';
import { systemClock } from './platform/clock.js';
import { AppError } from './platform/errors.js';
import { CsvBarsError } from './market/csv-bars.js';
import { importBarsFile } from './market/import-bars.js';

const program = new Command()
  .name('tradelab')
  .description('tradelab: trading research for retail traders. Configuration comes from the environment (see README).');

program
  .command('serve')
  .description('serve the API and web app; runs the job worker too unless --no-worker')
  .option('--no-worker', 'do not run jobs in this process (run `tradelab worker` elsewhere)')
  .action(async (options: { worker: boolean }) => serve(config(), { worker: options.worker }));

program
  .command('worker')
  .description('run only the job worker (mail, exports, purges)')
  .action(async () => runWorker(config()));

program
  .command('migrate')
  .description('bring the database schema up to date and exit')
  .action(async () => {
    const settings = config();
    const database = openDatabase(databaseOptions(settings));
    try {
      const applied = await migrateToLatest(database);
      console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'schema already up to date');
    } finally {
      await database.close();
    }
  });

program
  .command('import-bars')
  .description('import daily bars from a Yahoo-style CSV (Date,Open,High,Low,Close,Adj Close,Volume); re-importing changes nothing')
  .argument('<file>', 'CSV file')
  .requiredOption('--symbol <symbol>', 'ticker to store the bars under, such as AAPL')
  .option('--name <name>', 'display name, such as "Apple Inc." (default: the ticker, or the name already stored)')
  .action(async (file: string, options: { symbol: string; name?: string }) => {
    const database = openDatabase(databaseOptions(config()));
    try {
      await migrateToLatest(database);
      const summary = await importBarsFile(database.db, systemClock, { file, symbol: options.symbol, name: options.name });
      const skipped = summary.skippedNullRows > 0 ? `, ${summary.skippedNullRows} null rows skipped` : '';
      const adjusted = summary.adjusted ? ', adjusted by Adj Close' : '';
      console.log(`${summary.symbol}: ${summary.bars} bars ${summary.from} to ${summary.to}, ${summary.changed} new or changed${skipped}${adjusted}`);
    } catch (error) {
      if (error instanceof CsvBarsError || error instanceof AppError) {
        console.error(error.message);
        process.exitCode = 1;
        return;
      }
      throw error;
    } finally {
      await database.close();
    }
  });

function config(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
