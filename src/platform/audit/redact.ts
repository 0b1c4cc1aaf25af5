/** Keys whose values never reach the audit log or logs: tokens, credentials' proofs, cookies. */
const SECRET_KEY = /token|secret|passw|challenge|cookie|authorization|signature|attestation|assertion|client_data|session_id|api_key|key_id/i;
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** `jane.doe@example.com` → `j***@example.com`: enough to tell accounts apart in an audit, not to mail them. */
export function maskEmail(text: string): string {
  return text.replace(EMAIL, (_match, first: string, domain: string) => `${first}***@${domain}`);
}

/**
 * A copy of `value` fit for the audit log: keys that name secrets are dropped, emails in strings
 * are masked, nesting is kept. Cycles and functions are dropped.
 */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return maskEmail(value);
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) continue;
    const cleaned = redact(item, seen);
    if (cleaned !== undefined) result[key] = cleaned;
  }
  return result;
}
