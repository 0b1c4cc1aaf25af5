import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoadBalancer {
  readonly url: string;
  /** Requests sent to each target, in the order of `targets`. */
  readonly forwarded: readonly number[];
  close(): Promise<void>;
}

/** Headers that belong to one connection and must not be passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/**
 * A round-robin HTTP load balancer for the soak test, as a proxy in front of the instances would be: each request
 * goes to the next target over a keep-alive connection, with the client's address appended to `X-Forwarded-For`
 * (the instances trust 127.0.0.1). A target that cannot be reached answers 502 `bad_gateway`, which the soak counts
 * as a 5xx.
 */
export async function startLoadBalancer(targets: readonly string[]): Promise<LoadBalancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const forwarded = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next;
    next = (next + 1) % targets.length;
    forwarded[index]! += 1;
    const target = new URL(targets[index]!);
    const headers = { ...request.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const client = request.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${client}` : client;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent },
      (answer) => {
        const answerHeaders = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete answerHeaders[name];
        response.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (response.headersSent) return void response.destroy(error);
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'bad_gateway', message: `${target.host}: ${error.message}` }));
    });
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
