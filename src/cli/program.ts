import { Command } from 'commander';
import { addAdminCommands } from './admin.command.js';
import { configOrExit } from './exits.js';
import { addFetchBarsCommand } from './fetch-bars.command.js';
import { addImportBarsCommand } from './import-bars.command.js';
import { addServiceCommands } from './service.commands.js';

/** The `tradelab` command and its subcommands. Each reads the configuration only when it runs (so `--help` needs none). */
export function buildProgram(): Command {
  const program = new Command()
    .name('tradelab')
    .description('tradelab: trading research for retail traders. Configuration comes from the environment (see README).');
  addServiceCommands(program, configOrExit);
  addImportBarsCommand(program, configOrExit);
  addFetchBarsCommand(program, configOrExit);
  addAdminCommands(program, configOrExit);
  return program;
}

/** Runs the command line of this process; an unexpected error prints its message and exits 1. */
export function runProgram(): void {
  buildProgram()
    .parseAsync()
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
