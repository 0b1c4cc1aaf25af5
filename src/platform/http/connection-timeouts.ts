import type { ServerOptions } from 'node:http';
import type { ConnectionTimeouts } from '../config.js';

/**
 * The Fastify server options that hold clients to `timeouts`. Node checks the headers and request
 * timeouts on a timer (every 30 s by default, which would let a 10 s limit run to 40 s); it runs here
 * at a quarter of the shorter limit, at most once a second.
 */
export function connectionTimeoutOptions(timeouts: ConnectionTimeouts): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
    },
  };
}
