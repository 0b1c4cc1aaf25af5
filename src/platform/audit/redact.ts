/**
 * Keys whose values never reach the audit log or logs: tokens, credentials' proofs, cookies. Matched
 * against the key lower-cased with `_` and `-` removed, so `session_id`, `sessionId` and `session-id`
 * (or `client_data`, `clientDataJSON`) are all caught.
 */
const SECRET_KEY = new RegExp(
  [
    ...['token', 'secret', 'passw', 'passphrase', 'privatekey', 'apikey', 'keyid', 'sessionid', 'cookie', 'authorization'],
    ...['challenge', 'signature', 'attestation', 'assertion', 'clientdata'],
  ].join('|'),
);
/** Letters and digits of any script: a local part `jöhn` must not leak `jö` in front of the mask. */
const EMAIL = /([\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]*@([\p{L}\p{N}.-]+\.[\p{L}]{2,})/gu;

/** `jane.doe@example.com` → `j***@example.com`: enough to tell accounts apart in an audit, not to mail them. */
export function maskEmail(text: string): string {
  return text.replace(EMAIL, (_match, first: string, domain: string) => `${first}***@${domain}`);
}

/** True for a key whose value is a secret and must be dropped (`token`, `clientDataJSON`, `set-cookie`…). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[_-]/g, ''));
}

/**
 * A copy of `value` fit for the audit log and `JSON.stringify`: keys that name secrets are dropped,
 * emails in strings and keys are masked, nesting is kept. Values with `toJSON` (dates) are taken in
 * their JSON form, bigints become decimal strings; cycles, functions and symbols are dropped.
 */
export function redact(value: unknown): unknown {
  return redactValue(value, new WeakSet<object>());
}

/** `ancestors` holds the objects on the path from the root: a repeated reference is kept, a cycle is not. */
function redactValue(value: unknown, ancestors: WeakSet<object>): unknown {
  if (typeof value === 'string') return maskEmail(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return undefined;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return redactValue(toJSON.call(value), ancestors);

  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, ancestors));
    const entries: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      if (isSecretKey(key)) continue;
      const cleaned = redactValue(item, ancestors);
      if (cleaned !== undefined) entries.push([maskEmail(key), cleaned]);
    }
    // fromEntries defines own properties, so a `__proto__` key from parsed input is kept as data.
    return Object.fromEntries(entries);
  } finally {
    ancestors.delete(value);
  }
}
