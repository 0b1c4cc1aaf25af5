import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: http.IncomingHttpHeaders;
}

export type Answer = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'hang';

/**
 * A local HTTP server answering like Alpaca Market Data v2's `GET /v2/stocks/{symbol}/bars`
 * (`{bars: [{t,o,h,l,c,v,n,vw}], symbol, next_page_token}`); each test says what to answer.
 */
export async function startFakeAlpaca(): Promise<{
  url: string;
  seen: SeenRequest[];
  answer(respond: (request: SeenRequest, index: number) => Answer): void;
  close(): Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  let respond: (request: SeenRequest, index: number) => Answer = () => ({ status: 500 });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const request: SeenRequest = { path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers };
    seen.push(request);
    const answer = respond(request, seen.length - 1);
    if (answer === 'hang') return;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer: (fn) => {
      respond = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An Alpaca daily bar: stamped at midnight New York time (05:00 UTC in winter). */
export function alpacaBar(date: string, close: number) {
  return { t: `${date}T05:00:00Z`, o: close - 1, h: close + 1, l: close - 2, c: close, v: 1_000_000, n: 5000, vw: close };
}

/**
 * Alpaca's answer to `GET /v2/stocks/{symbol}/bars?timeframe=1Min&sort=desc&limit=1`: the newest minute bar, which
 * starts at `t` (ISO 8601) and closes at `close`; none when `t` is null.
 */
export function alpacaMinuteBars(symbol: string, t: string | null, close = 1) {
  const bars = t === null ? [] : [{ t, o: close, h: close, l: close, c: close, v: 1200, n: 40, vw: close }];
  return { bars, symbol, next_page_token: null };
}
