import type { Db } from '../../src/platform/db/database.js';
import { cashAfter, EXPORT_READY_SUBJECT, VERIFY_SUBJECT, type JourneyRecord } from './journey.js';
import type { MailCatcher } from './mail-catcher.js';

/** What the service audits for one whole journey (src/*: appendAudit calls), by action. */
export function expectedAudit(record: JourneyRecord): Record<string, number> {
  const count = (status: string) => record.orders.filter((o) => o.status === status).length;
  return {
    'user.register': 1,
    // Registration stores the first passkey, audited as any added one.
    'credential.add': 1,
    'user.email_verified': 1,
    'session.issue': 1,
    'strategy.create': record.strategies,
    'strategy.update': record.strategyUpdates,
    'order.submit': record.orders.length,
    'order.fill': count('filled'),
    'order.cancel': record.canceled,
    'dsr.export_requested': 1,
    'dsr.export': 1,
    'session.revoke': 1,
  };
}

/**
 * Reads each account the journeys made back from the database and the SMTP server, once the load is over, and
 * answers every way it differs from what its client was told: cash against the fills (to the cent), the orders
 * acknowledged against those stored, one export ready and one mail of each kind, the audit trail. Empty: consistent.
 */
export async function inconsistencies(db: Db, mail: MailCatcher, records: readonly JourneyRecord[]): Promise<string[]> {
  const problems: string[] = [];
  for (const record of records) {
    const who = `${record.email} (${record.userId})`;
    const problem = (text: string) => problems.push(`${who}: ${text}`);

    const account = await db.selectFrom('paper_accounts').select('cash_cents').where('user_id', '=', record.userId).executeTakeFirst();
    const stored = await db.selectFrom('orders').select(['id', 'side', 'qty', 'status', 'fill_price']).where('user_id', '=', record.userId).execute();
    const cash = Number(account?.cash_cents);
    if (cash !== record.expectedCashCents) problem(`cash ${cash} cents, but initial cash and the acknowledged fills make ${record.expectedCashCents}`);
    if (cash !== cashAfter(stored.map((o) => ({ ...o, fill_price: o.fill_price === null ? null : Number(o.fill_price) })))) {
      problem(`cash ${cash} cents differs from initial cash and the stored fills`);
    }
    if (record.answeredCashCents !== record.expectedCashCents) problem(`GET portfolio answered ${record.answeredCashCents} cents, the fills make ${record.expectedCashCents}`);
    const storedById = new Map(stored.map((o) => [o.id, o]));
    if (stored.length !== record.orders.length) problem(`${stored.length} orders stored, ${record.orders.length} acknowledged`);
    for (const order of record.orders) {
      const row = storedById.get(order.id);
      if (!row) problem(`acknowledged order ${order.id} is not stored`);
      else if (row.status !== order.status || Number(row.qty) !== order.qty || row.side !== order.side) {
        problem(`order ${order.id} stored as ${row.side} ${row.qty} ${row.status}, acknowledged as ${order.side} ${order.qty} ${order.status}`);
      }
    }

    const exports = await db.selectFrom('data_exports').select(['id', 'status']).where('user_id', '=', record.userId).execute();
    if (exports.length !== 1 || exports[0]!.id !== record.exportId || exports[0]!.status !== 'ready') problem(`exports ${JSON.stringify(exports)}, expected ${record.exportId} ready`);
    for (const [kind, subject] of [['verification', VERIFY_SUBJECT], ['export-ready', EXPORT_READY_SUBJECT]] as const) {
      const received = mail.mailsTo(record.email, subject).length;
      if (received !== 1) problem(`${received} ${kind} mails received over SMTP, expected 1`);
    }
    const outbox = await db.selectFrom('mail_outbox').select(['subject', 'sent_at']).where('to_address', '=', record.email.toLowerCase()).execute();
    if (outbox.length !== 2 || outbox.some((m) => m.sent_at === null)) problem(`outbox ${JSON.stringify(outbox)}, expected 2 mails, both sent`);

    const audited = await db
      .selectFrom('audit_entries')
      .select(['action', (eb) => eb.fn.countAll<number>().as('n')])
      .where('actor_user_id', '=', record.userId)
      .groupBy('action')
      .execute();
    const actual = Object.fromEntries(audited.map((row) => [row.action, Number(row.n)]));
    const expected = expectedAudit(record);
    for (const action of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if ((actual[action] ?? 0) !== (expected[action] ?? 0)) problem(`audit ${action}: ${actual[action] ?? 0} rows, expected ${expected[action] ?? 0}`);
    }
  }
  return problems;
}
