import type { Command } from 'commander';
import type { Config } from '../platform/config.js';
import { runWorker, serve } from '../server.js';
import { withMigratedDatabase } from './with-database.js';

/** The service's roles: `serve` (HTTP, and jobs unless --no-worker), `worker` (jobs only), `migrate` (schema, then exit). */
export function addServiceCommands(program: Command, config: () => Config): void {
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
    .action(async () =>
      withMigratedDatabase(config(), async (_db, applied) => {
        console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'schema already up to date');
      }),
    );
}
