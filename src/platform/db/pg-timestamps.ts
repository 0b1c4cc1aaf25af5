/**
 * PostgreSQL timestamps as the ISO strings both dialects return (`2026-11-24T02:58:00.123Z`). The server writes them
 * in its text format (`2026-11-24 02:58:00.123456+00` for a timestamptz in a UTC session); that common shape is
 * rewritten by slicing, as `new Date(text).toISOString()` would give it (fraction cut to milliseconds), because the
 * Date round trip was a visible share of a session-checked request on PostgreSQL (five timestamps a row; issue 17).
 * Any other shape (another offset, years outside 1000–9999, BC, infinity) goes through Date as before.
 */
const UTC_TIMESTAMP = /^([1-9]\d{3}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:\+00)?$/;

function viaDate(text: string): string {
  return new Date(text).toISOString();
}

function sliced(text: string, fallback: (text: string) => string): string {
  const match = UTC_TIMESTAMP.exec(text);
  if (match === null) return fallback(text);
  const fraction = match[3] === undefined ? '000' : match[3].length >= 3 ? match[3].slice(0, 3) : match[3].padEnd(3, '0');
  return `${match[1]}T${match[2]}.${fraction}Z`;
}

/** A `timestamptz` column's text: only an explicit `+00` offset is taken by the fast path. */
export function timestamptzToIso(text: string): string {
  return text.endsWith('+00') ? sliced(text, viaDate) : viaDate(text);
}

/** A `timestamp` (without time zone) column's text, read as UTC. */
export function timestampToIso(text: string): string {
  return sliced(text, (t) => viaDate(`${t}Z`));
}
