import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A uuid v4 for a new row. */
export function newId(): string {
  return randomUUID();
}

/** A 256-bit random token, base64url: for session ids, email links and ceremony handles. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 (hex) of a token: the only form in which tokens are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
