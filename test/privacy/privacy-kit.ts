import { unzipSync, strFromU8 } from 'fflate';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { Db } from '../../src/platform/db/database.js';
import { EXPORT_JOB, exportJob } from '../../src/privacy/exports.service.js';
import type { SignedInAccount } from '../helpers/accounts.js';
import type { AuthenticationResponseJSON } from '../../src/auth/webauthn.js';

export const GDPR = '/api/gdpr';

/** A fresh step-up assertion of `account` (options asked with its session, signed by its authenticator). */
export async function stepUpAssertion(account: Pick<SignedInAccount, 'client' | 'authenticator'>): Promise<AuthenticationResponseJSON> {
  const options = await account.client.post('step-up/options');
  expect(options.statusCode, options.body).toBe(200);
  return account.authenticator.getAssertion(options.json()) as AuthenticationResponseJSON;
}

/** Runs every queued export job through the real handler, as a worker would (on the app's clock). */
export async function runExportJobs(app: App): Promise<number> {
  const { db, dialect, clock, config, logger } = app.platform;
  const jobs = await db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', EXPORT_JOB).where('state', '=', 'queued').execute();
  const handler = exportJob({ db, dialect, clock, config, logger });
  for (const job of jobs) {
    await handler({ payload: JSON.parse(job.payload), attempt: 1 });
    await db.updateTable('jobs').set({ state: 'done' }).where('id', '=', job.id).execute();
  }
  return jobs.length;
}

/** The files of a zip, as text. */
export function unzipText(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, content]) => [name, strFromU8(content)]));
}

/** RFC 4180 parsing, strict: quoted fields, doubled quotes, CRLF records; throws on a malformed file. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i += 1;
        if (i < text.length && text[i] !== ',' && text[i] !== '\r') throw new Error(`stray character after a quoted field at ${i}`);
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`CR without LF at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else if (c === '\n') {
      throw new Error(`bare LF at ${i}`);
    } else {
      field += c;
    }
    i += 1;
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  const width = records[0]?.length;
  for (const r of records) if (r.length !== width) throw new Error(`a record of ${r.length} fields under a header of ${width}`);
  return records;
}

/** Every text value of every row of every table of the live schema that contains one of `needles`. */
export async function rowsNaming(db: Db, tables: readonly { table: string; column: string }[], needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const byTable = new Map<string, string[]>();
  for (const { table, column } of tables) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  for (const [table] of byTable) {
    const rows = (await db.selectFrom(table as 'users').selectAll().execute()) as Record<string, unknown>[];
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : typeof value === 'string' ? value : JSON.stringify(value ?? null);
        for (const needle of needles) if (text.toLowerCase().includes(needle.toLowerCase())) found.push(`${table}.${column}: ${text.slice(0, 120)}`);
      }
    }
  }
  return found;
}
