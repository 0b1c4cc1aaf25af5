/**
 * pino's JSON lines as a person at a terminal reads them: `09:05:07.042 INFO  message  details`. Only for a
 * terminal (`createLogger` chooses); anywhere else the JSON lines are kept, for log collectors.
 */

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that are shown in their own way. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

interface ErrorField {
  message?: string;
  stack?: string;
}

export function readableLogLine(json: string): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.replace(/\n$/, '');
  }
  const time = typeof line.time === 'number' ? new Date(line.time).toISOString().slice(11, 23) : '';
  const level = (LEVELS[line.level as number] ?? String(line.level)).padEnd(5);
  const parts = [`${time} ${level} ${String(line.msg ?? '')}`];

  const req = line.req as { method?: string; url?: string } | undefined;
  if (req) parts.push(`${req.method} ${req.url}`);
  const res = line.res as { statusCode?: number } | undefined;
  if (res) parts.push(`${res.statusCode}${typeof line.responseTime === 'number' ? ` in ${line.responseTime.toFixed(1)} ms` : ''}`);
  const err = line.err as ErrorField | undefined;
  if (err?.message) parts.push(err.message);
  const details = Object.entries(line)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  if (typeof line.reqId === 'string') details.push(`req=${line.reqId.slice(0, 8)}`);
  if (details.length > 0) parts.push(details.join(' '));

  const stack = err?.stack ? `\n${err.stack.replace(/^/gm, '    ')}` : '';
  return parts.join('  ') + stack;
}
