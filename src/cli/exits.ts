import { ConfigError, loadConfig, type Config } from '../platform/config.js';

/** The configuration from the environment; a bad variable ends the process with exit code 2 and its message. */
export function configOrExit(): Config {
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

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a command's work. A refusal (an error of one of `refusals`: a bad file, an unknown address) prints
 * its message and sets exit code 1; anything else is thrown on.
 */
export async function exitOneOnRefusal(refusals: readonly ErrorClass[], work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!refusals.some((kind) => error instanceof kind)) throw error;
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
