import { expect, it } from 'vitest';
import { DAY, HOUR } from '../../../src/platform/clock.js';
import { newId } from '../../../src/platform/ids.js';
import { purgeExpiredRecords } from '../../../src/platform/retention/housekeeping.job.js';
import { RETENTION } from '../../../src/platform/retention/retention-periods.js';
import { AUTH_RETENTION } from '../../../src/auth/auth-retention.js';
import { FEATURE_PURGES } from '../../../src/job-runner.js';
import { ManualClock } from '../../helpers/clock.js';
import { describeEachDialect } from '../../helpers/dialects.js';

const NOW = '2028-06-01T00:00:00.000Z';
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();
const JUST_INSIDE = HOUR;

describeEachDialect('housekeeping', (db) => {
  it('deletes each kind of record once past its retention period, and keeps the rest', async () => {
    const kysely = db().handle.db;
    const userId = newId();
    await kysely
      .insertInto('users')
      .values({ id: userId, email: 'keep@example.com', created_at: ago(900 * DAY), webauthn_user_id: 'h' })
      .execute();
    await kysely
      .insertInto('passkey_credentials')
      .values({ id: 'cred', user_id: userId, public_key: new Uint8Array([1]), created_at: ago(900 * DAY) })
      .execute();

    const challenge = (id: string, expiresAt: string) => ({
      id,
      ceremony: 'authentication' as const,
      expires_at: expiresAt,
      created_at: ago(DAY),
    });
    await kysely.insertInto('webauthn_challenges').values([challenge('old', ago(1)), challenge('live', ago(-60_000))]).execute();

    const session = (id: string, expiresAt: string, revokedAt: string | null) => ({
      id,
      user_id: userId,
      credential_id: 'cred',
      issued_at: ago(60 * DAY),
      expires_at: expiresAt,
      revoked_at: revokedAt,
      last_verified_at: ago(60 * DAY),
    });
    await kysely
      .insertInto('sessions')
      .values([
        session('expired-long-ago', ago(AUTH_RETENTION.endedSessions + JUST_INSIDE), null),
        session('revoked-long-ago', ago(-HOUR), ago(AUTH_RETENTION.endedSessions + JUST_INSIDE)),
        session('expired-recently', ago(AUTH_RETENTION.endedSessions - JUST_INSIDE), null),
      ])
      .execute();

    const mail = (id: string, createdAt: string, sentAt: string | null) => ({
      id,
      to_address: 'keep@example.com',
      subject: 's',
      text_body: sentAt ? '' : 'a link with a token',
      html_body: '',
      created_at: createdAt,
      sent_at: sentAt,
    });
    const old = ago(RETENTION.outboxMail + JUST_INSIDE);
    const [oldMail, neverSentMail, recentMail, unsentMail] = [newId(), newId(), newId(), newId()];
    await kysely
      .insertInto('mail_outbox')
      .values([
        mail(oldMail, old, old),
        mail(neverSentMail, old, null),
        mail(recentMail, ago(DAY), ago(DAY)),
        mail(unsentMail, ago(HOUR), null),
      ])
      .execute();

    const job = (state: 'done' | 'dead' | 'queued', finishedAt: string | null) => ({
      id: newId(),
      kind: 'k',
      payload: '{}',
      state,
      attempts: 1,
      max_attempts: 5,
      run_at: ago(60 * DAY),
      created_at: ago(60 * DAY),
      updated_at: ago(60 * DAY),
      finished_at: finishedAt,
    });
    const jobs = [
      job('done', ago(RETENTION.doneJobs + JUST_INSIDE)),
      job('done', ago(RETENTION.doneJobs - JUST_INSIDE)),
      job('dead', ago(RETENTION.doneJobs + JUST_INSIDE)),
      job('dead', ago(RETENTION.deadJobs + JUST_INSIDE)),
      job('queued', null),
    ];
    await kysely.insertInto('jobs').values(jobs).execute();

    await kysely
      .insertInto('audit_entries')
      .values([
        { action: 'user.register', at: ago(RETENTION.auditEntries + JUST_INSIDE) },
        { action: 'session.issue', at: ago(RETENTION.auditEntries - JUST_INSIDE) },
      ])
      .execute();

    await kysely
      .insertInto('rate_limit_counters')
      .values([
        { key: 'old', window_started_at: ago(RETENTION.rateLimitCounters + JUST_INSIDE), count: 3 },
        { key: 'current', window_started_at: ago(60_000), count: 3 },
      ])
      .execute();

    const clock = new ManualClock(NOW);
    expect(await purgeExpiredRecords(kysely, clock, FEATURE_PURGES)).toEqual({
      erased_users: 0,
      data_export_bundles: 0,
      data_exports: 0,
      export_tombstones: 0,
      webauthn_challenges: 1,
      email_verifications: 0,
      sessions: 2,
      breach_incidents: 0,
      mail_outbox: 2,
      jobs: 2,
      rate_limit_counters: 1,
      audit_entries: 1,
    });
    expect((await kysely.selectFrom('webauthn_challenges').select('id').execute()).map((r) => r.id)).toEqual(['live']);
    expect((await kysely.selectFrom('sessions').select('id').execute()).map((r) => r.id)).toEqual(['expired-recently']);
    expect((await kysely.selectFrom('mail_outbox').select('id').execute()).map((r) => r.id).sort()).toEqual(
      [recentMail, unsentMail].sort(),
    );
    expect((await kysely.selectFrom('jobs').select('id').execute()).map((r) => r.id).sort()).toEqual(
      [jobs[1]!.id, jobs[2]!.id, jobs[4]!.id].sort(),
    );
    expect((await kysely.selectFrom('audit_entries').select('action').execute()).map((r) => r.action)).toEqual(['session.issue']);
    expect((await kysely.selectFrom('rate_limit_counters').select('key').execute()).map((r) => r.key)).toEqual(['current']);

    // Idempotent: nothing more to do.
    const again = await purgeExpiredRecords(kysely, clock, FEATURE_PURGES);
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });
});
