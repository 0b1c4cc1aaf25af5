import pino from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import { truncateClientAddress } from './audit/client-address.js';
import { isSecretKey } from './audit/redact.js';
import { readableLogLine } from './readable-log.js';

/**
 * In a URL, beyond the names the audit log drops, any name with one of these words is kept out of the
 * logs too: an over-matched `postcode` costs nothing there, a leaked `recovery_code` would.
 */
const SECRET_IN_URL = /code|key|session|auth/i;

function isSecretQueryName(name: string): boolean {
  return isSecretKey(name) || SECRET_IN_URL.test(name);
}

/**
 * `url` as it may be logged: the path as it is, and every query parameter whose decoded name looks
 * secret (`token`, `access_token`, `%74oken`, `X-Signature`, …) with its value replaced by `[redacted]`.
 * Names are decoded as the server decodes them (`URLSearchParams`: percent-encoding and `+`).
 */
export function stripSecretsFromUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const params = url
    .slice(queryStart + 1)
    .split('&')
    .map((param) => {
      const [name] = [...new URLSearchParams(param).keys()];
      const valueStart = param.indexOf('=');
      if (name === undefined || valueStart === -1 || !isSecretQueryName(name)) return param;
      return `${param.slice(0, valueStart)}=[redacted]`;
    });
  return `${url.slice(0, queryStart)}?${params.join('&')}`;
}

/**
 * The process logger: JSON lines; cookies, auth headers and tokens in URLs never written; client
 * addresses logged at the same /24 or /48 precision that we store. Lines go to stdout unless
 * `destination` is given (tests capture them so); when stdout is a terminal they are written readably
 * (`readable-log.ts`) rather than as JSON.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination?: pino.DestinationStream,
): FastifyBaseLogger {
  const options: pino.LoggerOptions = {
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
  };
  if (destination) return pino(options, destination);
  return process.stdout.isTTY ? pino(options, readableStdout) : pino(options);
}

const readableStdout: pino.DestinationStream = {
  write: (line: string) => void process.stdout.write(`${readableLogLine(line)}\n`),
};
