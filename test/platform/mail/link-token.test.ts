import { expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { newId, sha256Hex } from '../../../src/platform/ids.js';
import { LINK_TOKEN_PLACEHOLDER, unmintedTokenHash } from '../../../src/platform/mail/link-token.js';
import { queueMail, SEND_MAIL_JOB } from '../../../src/platform/mail/outbox.js';
import { mintEmailLinkToken } from '../../../src/auth/email-links.service.js';
import { sendMailJob } from '../../../src/platform/mail/send-mail.job.js';
import type { MailMessage } from '../../../src/platform/mail/transport.js';

/**
 * A mail carrying an email link is queued with a placeholder; its token is minted at delivery, so no
 * link token ever rests in the database, and a retried delivery's link replaces the earlier one.
 */
describeEachDialect('mail link tokens', (db) => {
  const clock = new ManualClock('2026-02-01T09:30:00.000Z');

  async function queueLinkMail(email: string): Promise<{ linkId: string; outboxId: string }> {
    const kysely = db().handle.db;
    const userId = newId();
    const linkId = newId();
    const now = clock.now().toISOString();
    await kysely.insertInto('users').values({ id: userId, email, role: 'user', created_at: now, webauthn_user_id: newId() }).execute();
    await kysely
      .insertInto('email_verifications')
      .values({ id: linkId, user_id: userId, email, token_hash: unmintedTokenHash(), expires_at: '2026-02-01T09:45:00.000Z', purpose: 'initial', created_at: now })
      .execute();
    const link = `http://localhost:3000/verify-email?token=${LINK_TOKEN_PLACEHOLDER}`;
    const outboxId = await queueMail(kysely, clock, { to: email, subject: 'Confirm', text: `Open ${link}`, html: `<a href="${link}">x</a>`, userId, linkId });
    return { linkId, outboxId };
  }

  function deliverer(sent: MailMessage[], fail = false) {
    const job = sendMailJob({
      db: db().handle.db,
      clock,
      from: 'tradelab <no-reply@localhost>',
      mintLinkToken: mintEmailLinkToken,
      transport: {
        send: async (mail) => {
          sent.push(mail);
          if (fail) throw new Error('SMTP down');
        },
        close: () => undefined,
      },
    });
    return (outboxId: string) => job({ id: newId(), kind: SEND_MAIL_JOB, payload: { outboxId }, attempt: 1, signal: new AbortController().signal });
  }

  const tokenIn = (mail: MailMessage) => /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
  const hashOf = async (linkId: string) =>
    (await db().handle.db.selectFrom('email_verifications').select('token_hash').where('id', '=', linkId).executeTakeFirstOrThrow()).token_hash;

  it('mints the token at delivery: the mail carries it, the database only its SHA-256', async () => {
    const { linkId, outboxId } = await queueLinkMail('ann@example.com');
    const queued = await db().handle.db.selectFrom('mail_outbox').select(['text_body', 'link_id']).where('id', '=', outboxId).executeTakeFirstOrThrow();
    expect(queued).toEqual({ text_body: expect.stringContaining(`token=${LINK_TOKEN_PLACEHOLDER}`), link_id: linkId });

    const sent: MailMessage[] = [];
    await deliverer(sent)(outboxId);
    expect(sent).toHaveLength(1);
    const token = tokenIn(sent[0]!);
    expect(sent[0]!.html).toContain(`token=${token}`);
    expect(await hashOf(linkId)).toBe(sha256Hex(token));
  });

  it('a retried delivery mints a new token, and only the newest link works', async () => {
    const { linkId, outboxId } = await queueLinkMail('bea@example.com');
    const sent: MailMessage[] = [];
    await expect(deliverer(sent, true)(outboxId)).rejects.toThrow('SMTP down');
    await deliverer(sent)(outboxId);
    const [first, second] = sent.map(tokenIn);
    expect(first).not.toBe(second);
    expect(await hashOf(linkId)).toBe(sha256Hex(second!));
  });

  it('does not mail a link that was used in the meantime', async () => {
    const { linkId, outboxId } = await queueLinkMail('cid@example.com');
    await db().handle.db.updateTable('email_verifications').set({ consumed_at: clock.now().toISOString() }).where('id', '=', linkId).execute();
    const sent: MailMessage[] = [];
    await deliverer(sent)(outboxId);
    expect(sent).toEqual([]);
    const row = await db().handle.db.selectFrom('mail_outbox').select(['sent_at', 'text_body']).where('id', '=', outboxId).executeTakeFirstOrThrow();
    expect(row).toEqual({ sent_at: clock.now().toISOString(), text_body: '' });
  });

  it('does not mail a link that expired before delivery (SMTP down for more than 15 minutes)', async () => {
    const { outboxId } = await queueLinkMail('dot@example.com');
    const late = new ManualClock('2026-02-01T09:45:00.000Z');
    const sent: MailMessage[] = [];
    const job = sendMailJob({ db: db().handle.db, clock: late, from: 'x <x@localhost>', mintLinkToken: mintEmailLinkToken, transport: { send: async (m) => void sent.push(m), close: () => undefined } });
    await job({ id: newId(), kind: SEND_MAIL_JOB, payload: { outboxId }, attempt: 5, signal: new AbortController().signal });
    expect(sent).toEqual([]);
  });
});
