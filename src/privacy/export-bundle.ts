import { strToU8, zipSync } from 'fflate';
import type { DbOrTx } from '../platform/db/database.js';
import {
  EXPORT_COLUMNS,
  readAuditEntries,
  readOptionStructures,
  readOrders,
  readPaperAccount,
  readPaperPositions,
  readPasskeys,
  readProfile,
  readSessions,
  readStrategies,
} from './export-data.repo.js';

type Row = Record<string, unknown>;

/** Each table of the bundle: its CSV file and what the README says of it. */
export const BUNDLE_TABLES = [
  { key: 'profile', file: 'profile.csv', about: 'your account: address, display name, role, when it was created' },
  { key: 'passkeys', file: 'passkeys.csv', about: 'your passkeys: label, authenticator model (AAGUID), when added and last used (public keys left out)' },
  { key: 'sessions', file: 'sessions.csv', about: 'your sign-ins: when, from which browser and network (/24 or /48), when they ended' },
  { key: 'strategies', file: 'strategies.csv', about: 'your Strategy Library' },
  { key: 'orders', file: 'orders.csv', about: 'your paper orders, filled, resting, refused or canceled' },
  { key: 'paper_account', file: 'paper_account.csv', about: 'your paper cash account (amounts in cents)' },
  { key: 'paper_positions', file: 'paper_positions.csv', about: 'your open paper positions (cost in cents)' },
  { key: 'option_structures', file: 'option_structures.csv', about: 'your open paper options positions as the structures you traded (legs, units, net price a share)' },
  { key: 'audit_entries', file: 'audit_entries.csv', about: 'the audit log entries about you: what you did and what was done to your account' },
] as const;

export type BundleTable = (typeof BUNDLE_TABLES)[number]['key'];
export type BundleData = Record<BundleTable, Row[]>;

/** Everything the service holds about the user, as the bundle shows it. */
export async function collectBundleData(db: DbOrTx, userId: string): Promise<BundleData> {
  const audit = await readAuditEntries(db, userId);
  return {
    profile: await readProfile(db, userId),
    passkeys: await readPasskeys(db, userId),
    sessions: await readSessions(db, userId),
    strategies: await readStrategies(db, userId),
    orders: await readOrders(db, userId),
    paper_account: await readPaperAccount(db, userId),
    paper_positions: await readPaperPositions(db, userId),
    option_structures: await readOptionStructures(db, userId),
    // A session's id is the SHA-256 of its cookie: an audit row about a session keeps the kind, not the id.
    audit_entries: audit.map((entry) => ({ ...entry, target_id: entry.target_kind === 'session' ? null : entry.target_id })),
  };
}

/** The zip: README.txt, data.json (everything), one CSV per table. Deterministic for the same data and time. */
export function buildBundle(data: BundleData, exportedAt: string): Uint8Array {
  const mtime = new Date(exportedAt);
  const files: Record<string, [Uint8Array, { mtime: Date }]> = {
    'README.txt': [strToU8(readme(exportedAt)), { mtime }],
    'data.json': [strToU8(`${JSON.stringify({ exported_at: exportedAt, ...data }, null, 2)}\n`), { mtime }],
  };
  for (const table of BUNDLE_TABLES) files[table.file] = [strToU8(toCsv(EXPORT_COLUMNS[table.key], data[table.key])), { mtime }];
  return zipSync(files, { level: 6 });
}

function readme(exportedAt: string): string {
  return [
    'tradelab: your data',
    `Exported ${exportedAt}.`,
    '',
    'data.json             everything below in one file (JSON)',
    ...BUNDLE_TABLES.map((table) => `${table.file.padEnd(22)}${table.about}`),
    '',
    'The CSV files are UTF-8, comma-separated, with a header row (RFC 4180). Times are UTC (ISO 8601).',
    "A text cell starting with = + - @, a tab or a carriage return starts with an added ' in the CSV (so a spreadsheet",
    'does not run it as a formula); data.json has the text as it is.',
    'Nothing secret is included: no session tokens or their hashes, no passkey public keys, no sign-in challenges,',
    'no email-link tokens.',
    '',
  ].join('\r\n');
}

/** RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break. */
export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  const lines = [columns, ...rows.map((row) => columns.map((column) => row[column]))].map((fields) => fields.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A plain decimal number: what a spreadsheet reads as a number, never as a formula (PostgreSQL sends bigints as text). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** OWASP's CSV injection list: a cell starting with one of these may run as a formula in a spreadsheet. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Text only: a number (-12.5) stays a number. data.json keeps the value as it is.
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
