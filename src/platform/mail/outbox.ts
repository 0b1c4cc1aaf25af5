import type { DbOrTx } from '../db/database.js';
import type { Clock } from '../clock.js';
import { isoNow } from '../clock.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/jobs.js';

export const SEND_MAIL_JOB = 'mail.send';
/** With the 1-hour cap on the retry delay, 30 attempts keep trying through about a day of SMTP outage. */
export const MAIL_MAX_ATTEMPTS = 30;

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The account the mail concerns, if any: its outbox rows go when the account is purged. */
  readonly userId?: string | null;
  /**
   * A link row (of the feature queuing the mail) whose link the bodies carry with `LINK_TOKEN_PLACEHOLDER`
   * for its token: the token is minted when the mail is delivered (the send-mail job's `mintLinkToken`).
   */
  readonly linkId?: string;
}

/**
 * Puts a mail in the outbox and queues its delivery. Call it inside the transaction of the change
 * that causes the mail: if that change rolls back, no mail is ever sent.
 */
export async function queueMail(db: DbOrTx, clock: Clock, mail: OutgoingMail): Promise<string> {
  const id = newId();
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      user_id: mail.userId ?? null,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      created_at: isoNow(clock),
      link_id: mail.linkId ?? null,
    })
    .execute();
  await enqueueJob(db, clock, SEND_MAIL_JOB, { outboxId: id }, { maxAttempts: MAIL_MAX_ATTEMPTS });
  return id;
}
