import pino from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import { truncateClientAddress } from './audit/client-address.js';

/** Query parameters whose values must never reach a log line. */
const SECRET_QUERY = /([?&](?:token|code|key|secret)[^=&]*=)[^&]*/gi;

export function stripSecretsFromUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * The process logger: JSON lines; cookies, auth headers and tokens in URLs never written; client
 * addresses logged at the same /24 or /48 precision that we store.
 */
export function createLogger(config: Pick<Config, 'logLevel'>): FastifyBaseLogger {
  return pino({
    level: config.logLevel,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.token', '*.password'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: stripSecretsFromUrl(request.url),
        remoteAddress: truncateClientAddress(request.ip),
      }),
    },
  });
}
