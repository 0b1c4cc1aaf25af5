import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inconsistencies } from '../../bench/soak/consistency.js';
import { ORIGIN, runJourney, type JourneyRecord } from '../../bench/soak/journey.js';
import { MailCatcher } from '../../bench/soak/mail-catcher.js';
import { Recorder } from '../../bench/soak/recorder.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startWebServer, type WebServer } from '../web/rig/server.js';

/**
 * The soak's journey and its checks against one listening service (worker and SMTP included): a whole journey
 * passes them, and each kind of damage a lost or doubled write would leave is reported.
 */
describe.each(DIALECTS)('the soak journey and its consistency checks (%s)', (dialect) => {
  let server: WebServer;
  let mail: MailCatcher;
  const recorder = new Recorder();
  let record: JourneyRecord;

  beforeAll(async () => {
    server = await startWebServer({ dialect, env: { PUBLIC_ORIGIN: ORIGIN, TRUST_PROXY: '127.0.0.1' } });
    mail = MailCatcher.of(server.smtp);
    // PUBLIC_ORIGIN is the soak's (the links and the WebAuthn RP ID); the server listens where the rig put it.
    record = await runJourney(server.origin.replace('localhost', '127.0.0.1'), 1, mail, recorder);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('runs the whole journey, every answer as expected, and the account is consistent', async () => {
    expect(record.orders.map((o) => o.status)).toEqual(['filled', 'filled', 'filled', 'canceled', 'accepted']);
    expect(record.answeredCashCents).toBe(record.expectedCashCents);
    expect(new Set(recorder.samples.map((s) => s.route)).size).toBe(20);
    expect(recorder.samples.every((s) => s.status >= 200 && s.status < 300)).toBe(true);
    expect(await inconsistencies(server.app.platform.db, mail, [record])).toEqual([]);
  });

  it('reports a cent of cash off, a lost order, a missing audit row and a second export', async () => {
    const db = server.app.platform.db;
    await db.updateTable('paper_accounts').set({ cash_cents: record.expectedCashCents + 1 }).where('user_id', '=', record.userId).execute();
    const lost = { id: '00000000-0000-4000-8000-000000000000', side: 'buy' as const, qty: 1, status: 'filled', fill_price: 1 };
    const audit = await db.selectFrom('audit_entries').select('id').where('actor_user_id', '=', record.userId).where('action', '=', 'dsr.export').executeTakeFirstOrThrow();
    await db.deleteFrom('audit_entries').where('id', '=', audit.id).execute();

    const problems = await inconsistencies(db, mail, [{ ...record, orders: [...record.orders, lost], exportId: 'another' }]);

    expect(problems.join('\n')).toMatch(/cash \d+ cents, but initial cash and the acknowledged fills make/);
    expect(problems.join('\n')).toMatch(/cash \d+ cents differs from initial cash and the stored fills/);
    expect(problems.join('\n')).toMatch(/5 orders stored, 6 acknowledged/);
    expect(problems.join('\n')).toMatch(/acknowledged order 00000000-0000-4000-8000-000000000000 is not stored/);
    expect(problems.join('\n')).toMatch(/audit dsr\.export: 0 rows, expected 1/);
    expect(problems.join('\n')).toMatch(/exports .*, expected another ready/);
  });
});
