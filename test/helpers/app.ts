import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type App, type AppDependencies } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import type { Clock } from '../../src/platform/clock.js';
import type { DatabaseHandle } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { OFFLINE } from './offline.js';

export const TEST_ORIGIN = 'http://localhost:3000';

/** The configuration tests run with: defaults plus any overrides, as the environment would give them. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: '/tmp/tradelab-test-data', LOG_LEVEL: 'silent', ...OFFLINE, ...env });
}

/** Builds the app on a test database. */
export async function buildTestApp(
  database: DatabaseHandle,
  options: { env?: Record<string, string>; clock?: Clock; logger?: FastifyBaseLogger; webRoot?: string; sweepPool?: AppDependencies['sweepPool'] } = {},
): Promise<App> {
  return buildApp(testConfig(options.env), {
    database,
    logLevel: 'silent',
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.sweepPool ? { sweepPool: options.sweepPool } : {}),
  });
}

/**
 * The app's own logger (same redaction and serializers), at info level, whose JSON lines are kept in
 * memory to assert on what was logged: parsed (`lines`) or as written (`text`).
 */
export function capturingLogger(): {
  logger: FastifyBaseLogger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  const chunks: string[] = [];
  const logger = createLogger({ logLevel: 'info' }, { write: (chunk: string) => void chunks.push(chunk) });
  const text = () => chunks.join('');
  return { logger, lines: () => text().split('\n').filter(Boolean).map((line) => JSON.parse(line)), text };
}
