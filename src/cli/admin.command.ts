import type { Command } from 'commander';
import { systemClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import { setAdminRole } from '../admin/admin.service.js';
import { exitOneOnRefusal } from './exits.js';
import { withMigratedDatabase } from './with-database.js';

/** `tradelab admin grant|revoke EMAIL`: an unknown address exits 1 with a message. */
export function addAdminCommands(program: Command, config: () => Config): void {
  const admin = program.command('admin').description('manage the admin role (run on the server; audited as the system)');
  for (const [name, grant] of [['grant', true], ['revoke', false]] as const) {
    admin
      .command(`${name} <email>`)
      .description(grant ? 'give the account with this email the admin role' : 'take the admin role back from this account')
      .action(async (email: string) =>
        withMigratedDatabase(config(), (db) =>
          exitOneOnRefusal([AppError], async () => {
            const { changed } = await setAdminRole(db, systemClock, email, grant);
            console.log(`${email.trim().toLowerCase()}: ${changed ? (grant ? 'is now an admin' : 'is no longer an admin') : 'unchanged (already so)'}`);
          }),
        ),
      );
  }
}
