import { createHash } from 'node:crypto';
import net from 'node:net';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../src/platform/db/database.js';
import type { Defect, FuzzRequest } from './openapi-fuzz-cases.js';

/** The most an error reply may weigh: enough for a message and a few details, never an echo of the request. */
export const ERROR_REPLY_LIMIT = 16 * 1024;
/** The most any reply to a refused or bodiless request may weigh. */
export const REPLY_LIMIT = 1024 * 1024;

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: Buffer;
}

/** What is wrong with a reply to a generated bad request; empty when it is as the contract says. */
export function problemsOf(reply: Reply, defect: Defect): string[] {
  const problems: string[] = [];
  if (reply.status >= 500) problems.push('5xx');
  if (reply.status < 400 && defect !== 'none') problems.push('not_refused');
  if (reply.body.length > REPLY_LIMIT) problems.push('reply_too_large');
  if (reply.status >= 400) {
    if (reply.body.length > ERROR_REPLY_LIMIT) problems.push('error_reply_too_large');
    if (!isErrorBody(reply)) problems.push('malformed_error_body');
    if (reply.headers['x-content-type-options'] !== 'nosniff' || !reply.headers['content-security-policy']) {
      problems.push('error_without_security_headers');
    }
  }
  return problems;
}

function isErrorBody(reply: Reply): boolean {
  if (!String(reply.headers['content-type'] ?? '').startsWith('application/json')) return false;
  let body: unknown;
  try {
    body = JSON.parse(reply.body.toString('utf8'));
  } catch {
    return false;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { error, message, details, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return false;
  if (typeof error !== 'string' || !/^[a-z][a-z0-9_]*$/.test(error)) return false;
  if (typeof message !== 'string' || message.length === 0) return false;
  if (details === undefined) return true;
  return (
    Array.isArray(details) &&
    details.every(
      (d) => d && typeof d === 'object' && typeof d.message === 'string' && (d.field === undefined || typeof d.field === 'string'),
    )
  );
}

/**
 * Tables that are bookkeeping, not stored data: the rate limiter counts every request, refused ones
 * included (issue 19 asks that refused requests count toward the limits).
 */
const BOOKKEEPING_TABLES = new Set(['rate_limit_counters']);

/** The tables of the live schema, bookkeeping aside: read from the database, so a table added later is covered. */
export async function storedTables(database: DatabaseHandle): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  return tables.filter((t) => !t.isView && !BOOKKEEPING_TABLES.has(t.name)).map((t) => t.name);
}

/** Every table's row count and a hash of its content. Equal snapshots: no stored row was added, removed or changed. */
export async function snapshotTables(database: DatabaseHandle, tables: readonly string[]): Promise<Map<string, string>> {
  const hashes = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
      const lines = rows.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)), jsonSafe)).sort();
      return [table, `${rows.length} rows, ${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`] as const;
    }),
  );
  return new Map(hashes);
}

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** The tables whose snapshot differs, with before → after. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).map((name) => `${name}: ${before.get(name)} → ${after.get(name)}`);
}

/**
 * One request over a real socket, written byte for byte (so the HTTP parser sees malformed requests as a
 * hostile client sends them), with `Connection: close`; the reply is read to the end.
 */
export async function sendRaw(port: number, bytes: Buffer, timeoutMs = 5_000): Promise<Reply | 'no_reply'> {
  const received = await new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = () => resolve(Buffer.concat(chunks));
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', done);
    socket.on('close', done);
    // Written, not half-closed: a client's FIN can make the server drop a request it is still answering.
    socket.on('connect', () => socket.write(bytes));
  });
  return parseReply(received) ?? 'no_reply';
}

/** The bytes of `request` as an HTTP/1.1 request: the headers as given, a Content-Length when a body is sent. */
export function requestBytes(request: FuzzRequest, headers: Record<string, string>): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/1.1`, 'Host: localhost:3000', 'Connection: close'];
  for (const [name, value] of Object.entries({ ...headers, ...request.headers })) lines.push(`${name}: ${value}`);
  if (request.payload) lines.push(`Content-Length: ${request.payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.payload ?? Buffer.alloc(0)]);
}

function parseReply(bytes: Buffer): Reply | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Requests only a socket can send: the HTTP parser refuses them before any route runs. */
export function parserLevelRequests(url: string): { name: string; bytes: Buffer }[] {
  const head = (lines: string[], body = '') => Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
  const base = [`POST ${url} HTTP/1.1`, 'Host: localhost:3000', 'Connection: close', 'Origin: http://localhost:3000'];
  return [
    { name: 'header over 16 KB', bytes: head([...base, `X-Big: ${'a'.repeat(20_000)}`]) },
    { name: 'invalid header name', bytes: head([...base, 'Bad Header: x']) },
    { name: 'header line without a colon', bytes: head([...base, 'NoColonHere']) },
    { name: 'control character in a header', bytes: head([...base, 'X-Fuzz: a\u0001b']) },
    { name: 'bad HTTP version', bytes: head([`GET ${url} HTTP/1.1x`, 'Host: localhost:3000', 'Connection: close']) },
    { name: 'Content-Length not a number', bytes: head([...base, 'Content-Type: application/json', 'Content-Length: abc'], '{}') },
    { name: 'two Content-Lengths', bytes: head([...base, 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 3'], '{}') },
    {
      name: 'Content-Length with chunked',
      bytes: head([...base, 'Content-Type: application/json', 'Content-Length: 2', 'Transfer-Encoding: chunked'], '2\r\n{}\r\n0\r\n\r\n'),
    },
    { name: 'bad chunk size', bytes: head([...base, 'Content-Type: application/json', 'Transfer-Encoding: chunked'], 'zz\r\n{}\r\n0\r\n\r\n') },
    { name: 'non-ASCII bytes in the URL', bytes: head([`GET ${url}?q=\u00ff\u00fe HTTP/1.1`, 'Host: localhost:3000', 'Connection: close']) },
    { name: 'URL of 70 KB', bytes: head([`GET ${url}?q=${'a'.repeat(70_000)} HTTP/1.1`, 'Host: localhost:3000', 'Connection: close']) },
    { name: 'no Host header', bytes: head([`GET ${url} HTTP/1.1`, 'Connection: close']) },
  ];
}
