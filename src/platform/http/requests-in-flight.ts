import type { FastifyInstance } from 'fastify';

export interface RequestsInFlight {
  /** How many requests are being handled now. */
  count(): number;
  /** Resolves once no request is being handled (at once if none is). */
  settled(): Promise<void>;
}

/**
 * Counts requests from arrival until their handling is over, so that closing the app can wait for them before
 * the database goes. A request is over when its response has gone out (`onResponse`), or, if its connection
 * closed first (the client left, or shutdown closed it), when its handler has nonetheless answered (`onSend`):
 * Fastify runs the handler to the end either way, and a handler still running would find the database closed.
 */
export function trackRequestsInFlight(app: FastifyInstance): RequestsInFlight {
  const open = new Set<object>();
  let waiters: (() => void)[] = [];
  const finish = (request: object) => {
    if (!open.delete(request) || open.size > 0) return;
    const waiting = waiters;
    waiters = [];
    waiting.forEach((resolve) => resolve());
  };
  const answered = new WeakSet<object>();
  const connectionGone = new WeakSet<object>();

  app.addHook('onRequest', async (request, reply) => {
    open.add(request);
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return; // sent: onResponse follows
      connectionGone.add(request);
      if (answered.has(request)) finish(request);
    });
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    answered.add(request);
    // The socket may have closed before the 'close' listener above was attached: the HTTP parser refuses a
    // malformed body arriving in the same packet as the headers, and closes the socket, before this hook runs.
    if (connectionGone.has(request) || request.raw.socket?.destroyed) finish(request);
    return payload;
  });
  app.addHook('onResponse', async (request) => finish(request));

  return {
    count: () => open.size,
    settled: () => (open.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}
