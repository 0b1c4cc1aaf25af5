import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/platform/db/database.js';
import type { Database } from '../../src/platform/db/schema.js';
import { sessionCookieOf } from '../helpers/http-client.js';

/**
 * What the auth refusal, fuzz and two-instance tests check beyond the shared client and account kit
 * (test/helpers/http-client.ts, test/helpers/accounts.ts): a refusal's shape, no session issued, and
 * table snapshots to show that nothing changed.
 */

export function expectNoSessionIssued(response: LightMyRequestResponse): void {
  expect(sessionCookieOf(response) || undefined, 'no service_session cookie with a value').toBeUndefined();
}

export function expectRefusal(response: LightMyRequestResponse, status: number, error: string): void {
  expect({ status: response.statusCode, body: safeJson(response.body) }).toMatchObject({ status, body: { error } });
  expectNoSessionIssued(response);
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rows of the tables a refusal must never touch, in a stable order. */
export const GUARDED_TABLES = ['users', 'passkey_credentials', 'sessions', 'email_verifications'] as const;

export async function snapshot(db: Db, tables: readonly (keyof Database)[] = GUARDED_TABLES): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .map((row) => normalise(row))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value instanceof Uint8Array ? Buffer.from(value).toString('base64url') : value;
  }
  return out;
}

export async function countRows(db: Db, table: 'audit_entries' | 'mail_outbox' | 'webauthn_challenges' | 'sessions'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
