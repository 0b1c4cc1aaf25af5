#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from './platform/config.js';
import { databaseOptions, migrateToLatest, openDatabase } from './platform/db/database.js';
import { runWorker, serve } from './server.js';
import { addAdminCommands } from './admin/admin.cli.js';
import { addMarketCommands } from './market/market.cli.js';

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

addMarketCommands(program, config);
addAdminCommands(program, config);

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
