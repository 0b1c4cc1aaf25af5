import { beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/dialects.js';
import { ManualClock } from '../../helpers/clock.js';
import { newId } from '../../../src/platform/ids.js';
import { appendAudit } from '../../../src/platform/audit/audit.js';

describeEachDialect('audit log', (db) => {
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock('2026-03-10T08:15:30.123Z');
    const { db: kysely } = db().handle;
    await kysely.deleteFrom('audit_entries').execute();
    await kysely.deleteFrom('users').execute();
  });

  async function entries() {
    return db().handle.db.selectFrom('audit_entries').selectAll().orderBy('id').execute();
  }

  it('stores who did what to which target, at the clock time, with a redacted context', async () => {
    const actor = newId();

    const id = await appendAudit(db().handle.db, clock, {
      actorUserId: actor,
      action: 'session.issue',
      targetKind: 'session',
      targetId: 'sess-42',
      context: {
        email: 'jane.doe@example.com',
        sessionToken: 'tok_secret',
        challenge: 'c2VjcmV0',
        cookie: 'sid=abc',
        device: { label: 'Laptop', owner: 'Contact bob@example.org', clientDataJSON: 'eyJ0eXAiOi' },
        credentials: [{ id: 'cred-1', signature: 'MEUCIQ' }],
        attempts: 2,
        remembered: false,
        note: null,
      },
    });

    const [entry] = await entries();
    expect(entry).toEqual({
      id,
      actor_user_id: actor,
      action: 'session.issue',
      target_kind: 'session',
      target_id: 'sess-42',
      context: expect.any(String),
      at: '2026-03-10T08:15:30.123Z',
      actor_hash: null,
    });
    expect(JSON.parse(entry!.context!)).toEqual({
      email: 'j***@example.com',
      device: { label: 'Laptop', owner: 'Contact b***@example.org' },
      credentials: [{ id: 'cred-1' }],
      attempts: 2,
      remembered: false,
      note: null,
    });
    expect(entry!.context).not.toMatch(/tok_secret|c2VjcmV0|sid=abc|eyJ0eXAiOi|MEUCIQ|jane\.doe|bob@/);
  });

  it('stores a system entry with no actor, target or context as nulls', async () => {
    await appendAudit(db().handle.db, clock, { actorUserId: null, action: 'retention.purge' });

    expect(await entries()).toEqual([
      expect.objectContaining({ actor_user_id: null, action: 'retention.purge', target_kind: null, target_id: null, context: null }),
    ]);
  });

  it('numbers entries in the order they are appended', async () => {
    const first = await appendAudit(db().handle.db, clock, { actorUserId: null, action: 'a.first' });
    clock.advance(1_000);
    const second = await appendAudit(db().handle.db, clock, { actorUserId: null, action: 'a.second' });

    expect(second).toBeGreaterThan(first);
    expect((await entries()).map((e) => [e.id, e.action, e.at])).toEqual([
      [first, 'a.first', '2026-03-10T08:15:30.123Z'],
      [second, 'a.second', '2026-03-10T08:15:31.123Z'],
    ]);
  });

  it('commits an entry with the change it audits, and drops it when that change rolls back', async () => {
    const kept = newId();
    const lost = newId();
    const register = (userId: string, email: string, fail: boolean) =>
      db()
        .handle.db.transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({ id: userId, email, role: 'user', created_at: clock.now().toISOString(), webauthn_user_id: newId() })
            .execute();
          await appendAudit(trx, clock, { actorUserId: userId, action: 'user.register', targetKind: 'user', targetId: userId });
          if (fail) throw new Error('registration failed');
        });

    await register(kept, 'kept@example.com', false);
    await expect(register(lost, 'lost@example.com', true)).rejects.toThrow('registration failed');

    expect((await entries()).map((e) => e.target_id)).toEqual([kept]);
    const users = await db().handle.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([{ id: kept }]);
  });

  it('stores a context holding dates and big integers instead of failing the audited change', async () => {
    await appendAudit(db().handle.db, clock, {
      actorUserId: null,
      action: 'export.ready',
      context: { readyAt: new Date('2026-03-10T09:00:00.000Z'), bytes: 12_345_678_901_234_567_890n },
    });

    const [entry] = await entries();
    expect(JSON.parse(entry!.context!)).toEqual({ readyAt: '2026-03-10T09:00:00.000Z', bytes: '12345678901234567890' });
  });
});
