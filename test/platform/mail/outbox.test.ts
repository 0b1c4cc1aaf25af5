import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { newId } from '../../../src/platform/ids.js';
import { renderMail } from '../../../src/platform/mail/layout.js';
import { queueMail, SEND_MAIL_JOB } from '../../../src/platform/mail/outbox.js';

describeEachDialect('mail outbox', (db) => {
  const clock = new ManualClock('2026-02-01T09:30:00.000Z');

  beforeEach(async () => {
    const { db: kysely } = db().handle;
    await kysely.deleteFrom('jobs').execute();
    await kysely.deleteFrom('mail_outbox').execute();
    await kysely.deleteFrom('users').execute();
  });

  /** A sign-up as a feature writes it: the user row and the confirmation mail in one transaction. */
  async function signUp(email: string, options: { failAfterQueueing?: boolean } = {}): Promise<{ userId: string }> {
    const userId = newId();
    await db()
      .handle.db.transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id: userId, email, role: 'user', created_at: clock.now().toISOString(), webauthn_user_id: newId() })
          .execute();
        const bodies = renderMail({ heading: 'Welcome', paragraphs: ['Confirm your address.'] });
        await queueMail(trx, clock, { to: email, subject: 'Welcome to tradelab', userId, ...bodies });
        if (options.failAfterQueueing) throw new Error('sign-up failed after the mail was queued');
      });
    return { userId };
  }

  async function everything() {
    const { db: kysely } = db().handle;
    return {
      users: await kysely.selectFrom('users').select(['id', 'email']).execute(),
      outbox: await kysely.selectFrom('mail_outbox').selectAll().execute(),
      jobs: await kysely.selectFrom('jobs').selectAll().execute(),
    };
  }

  it('commits the user, the outbox row and its mail.send job together', async () => {
    const { userId } = await signUp('ann@example.com');

    const { users, outbox, jobs } = await everything();
    expect(users).toEqual([{ id: userId, email: 'ann@example.com' }]);
    expect(outbox).toEqual([
      {
        id: expect.any(String),
        user_id: userId,
        to_address: 'ann@example.com',
        subject: 'Welcome to tradelab',
        text_body: expect.stringContaining('Confirm your address.'),
        html_body: expect.stringContaining('<p>Confirm your address.</p>'),
        created_at: '2026-02-01T09:30:00.000Z',
        sent_at: null,
        link_id: null,
      },
    ]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: SEND_MAIL_JOB, state: 'queued', attempts: 0, run_at: '2026-02-01T09:30:00.000Z' });
    expect(JSON.parse(jobs[0]!.payload)).toEqual({ outboxId: outbox[0]!.id });
  });

  it('leaves no user, no outbox row and no job when the transaction rolls back', async () => {
    await expect(signUp('bo@example.com', { failAfterQueueing: true })).rejects.toThrow('sign-up failed');

    expect(await everything()).toEqual({ users: [], outbox: [], jobs: [] });
  });

  it('returns the outbox id, which the job carries', async () => {
    const outboxId = await queueMail(db().handle.db, clock, { to: 'cy@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' });

    const { outbox, jobs } = await everything();
    expect(outbox.map((row) => row.id)).toEqual([outboxId]);
    expect(outbox[0]!.user_id).toBeNull();
    expect(jobs.map((job) => JSON.parse(job.payload))).toEqual([{ outboxId }]);
  });
});
