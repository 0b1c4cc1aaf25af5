import type { Db } from '../db/database.js';
import { isoNow, type Clock } from '../clock.js';
import type { JobHandler } from '../jobs/jobs.js';
import type { MailTransport } from './transport.js';

/**
 * Delivers one outbox row. Idempotent: a row already marked sent is skipped, so a retried job does
 * not mail twice (a crash between sending and marking can still repeat one mail: at-least-once).
 * Once delivered, the bodies are blanked: they may carry a single-use link, whose token must not
 * rest in the database (only its hash does), and the words are personal data we no longer need.
 */
export function sendMailJob(deps: { db: Db; clock: Clock; transport: MailTransport; from: string }): JobHandler {
  return async (job) => {
    const { outboxId } = job.payload as { outboxId: string };
    const mail = await deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
    if (!mail || mail.sent_at) return;
    await deps.transport.send({
      id: mail.id,
      from: deps.from,
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
    });
    await deps.db
      .updateTable('mail_outbox')
      .set({ sent_at: isoNow(deps.clock), text_body: '', html_body: '' })
      .where('id', '=', outboxId)
      .execute();
  };
}
