import type { Db } from '../db/database.js';
import { isoNow, type Clock } from '../clock.js';
import type { JobHandler } from '../jobs/jobs.js';
import { makeRetriesDue } from '../jobs/jobs.repo.js';
import { SEND_MAIL_JOB } from './outbox.js';
import type { MailMessage, MailTransport } from './transport.js';
import { LINK_TOKEN_PLACEHOLDER, type MintLinkToken } from './link-token.js';

/**
 * Delivers one outbox row. Idempotent: a row already marked sent is skipped, so a retried job does
 * not mail twice (a crash between sending and marking can still repeat one mail: at-least-once).
 * A mail carrying a link gets its token minted here, at delivery, by the link owner's `mintLinkToken`, so
 * the token never rests in the database (only its hash does); a link already used, expired or gone is not mailed. Once delivered, the bodies
 * are blanked: the words are personal data we no longer need, and the mail retries that waited out a relay outage
 * fall due at once (the backlog then drains oldest first; see docs/faults.md).
 */
/** An address no mail may go to: the reserved `.invalid` top-level domain. */
export function isUndeliverable(address: string): boolean {
  return /\.invalid>?$/i.test(address.trim());
}

export function sendMailJob(deps: {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  from: string;
  mintLinkToken: MintLinkToken;
}): JobHandler {
  return async (job) => {
    const { outboxId } = job.payload as { outboxId: string };
    const mail = await deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
    if (!mail || mail.sent_at) return;
    // RFC 2606 `.invalid` (the AUTH_V1=off operator's address) is never delivered, whatever the relay would do.
    const deliverable = !isUndeliverable(mail.to_address);
    const token = !deliverable ? undefined : mail.link_id === null ? null : await deps.mintLinkToken(deps.db, mail.link_id, isoNow(deps.clock));
    const delivers = token !== undefined;
    if (delivers) {
      const withToken = (body: string) => (token === null ? body : body.replaceAll(LINK_TOKEN_PLACEHOLDER, token));
      await sendOrTellUnreachable(deps.transport, {
        id: mail.id,
        from: deps.from,
        to: mail.to_address,
        subject: mail.subject,
        text: withToken(mail.text_body),
        html: withToken(mail.html_body),
      });
    }
    await deps.db
      .updateTable('mail_outbox')
      .set({ sent_at: isoNow(deps.clock), text_body: '', html_body: '' })
      .where('id', '=', outboxId)
      .execute();
    // The relay answers: mail that waited out an outage goes now, oldest first, not at each one's next retry.
    if (delivers) await makeRetriesDue(deps.db, SEND_MAIL_JOB, RELAY_UNREACHABLE, isoNow(deps.clock));
  };
}

/**
 * How a delivery that failed because the relay could not be reached starts its error (the job's `last_error`):
 * only those retries are brought forward when the relay answers again. A mail the relay refused (a 4xx
 * greylisting, a 550) keeps its own backoff.
 */
export const RELAY_UNREACHABLE = 'relay unreachable: ';
/** Nodemailer's codes for a relay that cannot be reached, dropped the connection or timed out. */
const UNREACHABLE_CODES = new Set(['ESOCKET', 'ECONNECTION', 'ETIMEDOUT', 'EDNS']);

async function sendOrTellUnreachable(transport: MailTransport, message: MailMessage): Promise<void> {
  try {
    await transport.send(message);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) {
      throw new Error(`${RELAY_UNREACHABLE}${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}
