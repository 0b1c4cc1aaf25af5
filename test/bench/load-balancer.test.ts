import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoadBalancer, type LoadBalancer } from '../../bench/soak/load-balancer.js';

/** A target that answers who it is and the headers it was sent. */
async function echoServer(name: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-target': name });
      response.end(JSON.stringify({ name, method: request.method, url: request.url, body, forwardedFor: request.headers['x-forwarded-for'] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the soak load balancer', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  const started = <T extends { close(): Promise<void> }>(thing: T): T => (open.push(thing), thing);

  it('sends each request to the next target in turn, body, status and headers passed through', async () => {
    const a = started(await echoServer('a'));
    const b = started(await echoServer('b'));
    const balancer: LoadBalancer = started(await startLoadBalancer([a.url, b.url]));

    const answers = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${balancer.url}/api/x?n=${i}`, { method: 'POST', body: `body ${i}` });
      answers.push({ status: response.status, target: response.headers.get('x-target'), ...((await response.json()) as object) });
    }

    expect(answers.map((x) => x.target)).toEqual(['a', 'b', 'a', 'b']);
    expect(answers[3]).toMatchObject({ status: 201, name: 'b', method: 'POST', url: '/api/x?n=3', body: 'body 3' });
    expect(balancer.forwarded).toEqual([2, 2]);
  });

  it("appends the client's address to X-Forwarded-For, as a proxy the instances trust does", async () => {
    const a = started(await echoServer('a'));
    const balancer = started(await startLoadBalancer([a.url]));

    const sent = (await (await fetch(balancer.url, { headers: { 'x-forwarded-for': '10.1.2.7' } })).json()) as { forwardedFor: string };
    const bare = (await (await fetch(balancer.url)).json()) as { forwardedFor: string };

    expect(sent.forwardedFor).toBe('10.1.2.7, 127.0.0.1');
    expect(bare.forwardedFor).toBe('127.0.0.1');
  });

  it('answers 502 bad_gateway when a target is down, which the soak counts as a 5xx', async () => {
    const gone = await echoServer('gone');
    await gone.close();
    const balancer = started(await startLoadBalancer([gone.url]));

    const response = await fetch(balancer.url);

    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: 'bad_gateway' });
  });
});
