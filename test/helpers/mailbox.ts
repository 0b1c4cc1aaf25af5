import type { Db } from '../../src/platform/db/database.js';
import { SEND_MAIL_JOB } from '../../src/platform/mail/outbox.js';
import { mintEmailLinkToken } from '../../src/auth/email-links.service.js';
import { sendMailJob } from '../../src/platform/mail/send-mail.job.js';

export interface DeliveredMail {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Every mail these helpers delivered, by outbox id (ids are unique across databases). */
const delivered = new Map<string, DeliveredMail>();

/**
 * The mails to `to`, oldest first, as they were delivered: any still queued for `to` is delivered first
 * through the real send-mail job (which mints link tokens), into memory, at the time it was queued. Mails delivered some other
 * way (a test running the job itself) are left out.
 */
export async function deliveredMailsTo(db: Db, to: string): Promise<DeliveredMail[]> {
  const address = to.toLowerCase();
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'sent_at', 'created_at'])
    .where('to_address', '=', address)
    .orderBy('created_at')
    .execute();
  for (const row of rows.filter((r) => r.sent_at === null)) {
    // Delivered the moment it was queued, as a running worker would: on the test's own timeline.
    const send = sendMailJob({
      db,
      clock: { now: () => new Date(row.created_at) },
      from: 'tradelab <no-reply@localhost>',
      mintLinkToken: mintEmailLinkToken,
      transport: { send: async (mail) => void delivered.set(mail.id, { ...mail }), close: () => undefined },
    });
    await send({ id: `test-${row.id}`, kind: SEND_MAIL_JOB, payload: { outboxId: row.id }, attempt: 1, signal: new AbortController().signal });
  }
  return rows.flatMap((row) => delivered.get(row.id) ?? []);
}

/** The link tokens in the mails delivered to `to`, oldest first. */
export async function mailedLinkTokens(db: Db, to: string, page?: 'verify-email' | 'recover'): Promise<string[]> {
  const pattern = new RegExp(`/${page ?? '(?:verify-email|recover)'}\\?token=([A-Za-z0-9_-]{43})`, 'g');
  return (await deliveredMailsTo(db, to)).flatMap((mail) => [...mail.text.matchAll(pattern)].map((m) => m[1]!));
}
