import { describe, expect, it } from 'vitest';
import { readableLogLine } from './readable-log.js';

const at = Date.UTC(2026, 10, 23, 9, 5, 7, 42);

describe('readableLogLine', () => {
  it.each([
    [{ level: 30, time: at, pid: 1, hostname: 'h', msg: 'Server listening at http://127.0.0.1:3000' }, '09:05:07.042 INFO  Server listening at http://127.0.0.1:3000'],
    [
      { level: 30, time: at, reqId: '7f3c2a10-aaaa-bbbb', req: { method: 'GET', url: '/api/templates', remoteAddress: '127.0.0.0/24' }, msg: 'incoming request' },
      '09:05:07.042 INFO  incoming request  GET /api/templates  req=7f3c2a10',
    ],
    [
      { level: 30, time: at, reqId: '7f3c2a10-aaaa-bbbb', res: { statusCode: 200 }, responseTime: 3.4567, msg: 'request completed' },
      '09:05:07.042 INFO  request completed  200 in 3.5 ms  req=7f3c2a10',
    ],
    [{ level: 40, time: at, msg: 'SMTP_URL is not set', code: 'x', count: 2 }, '09:05:07.042 WARN  SMTP_URL is not set  code="x" count=2'],
  ])('%j', (line, readable) => {
    expect(readableLogLine(`${JSON.stringify(line)}\n`)).toBe(readable);
  });

  it('puts an error\'s stack under its line', () => {
    const line = { level: 50, time: at, msg: 'unhandled error', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (a.ts:1:1)' } };
    expect(readableLogLine(JSON.stringify(line))).toBe('09:05:07.042 ERROR unhandled error  boom\n    Error: boom\n        at x (a.ts:1:1)');
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(readableLogLine('plain words\n')).toBe('plain words');
  });
});
