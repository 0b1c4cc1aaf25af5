import pino from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import { truncateClientAddress } from './audit/client-address.js';

/** A query parameter whose decoded name contains one of these has its value kept out of the logs. */
const SECRET_NAME = /token|code|key|secret|password|signature|session|auth/i;

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
      if (name === undefined || valueStart === -1 || !SECRET_NAME.test(name)) return param;
      return `${param.slice(0, valueStart)}=[redacted]`;
    });
  return `${url.slice(0, queryStart)}?${params.join('&')}`;
}

/**
 * The process logger: JSON lines; cookies, auth headers and tokens in URLs never written; client
 * addresses logged at the same /24 or /48 precision that we store. Lines go to stdout unless
 * `destination` is given (tests capture them so).
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
  return destination ? pino(options, destination) : pino(options);
}
