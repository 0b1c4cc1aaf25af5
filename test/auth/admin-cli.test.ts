import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-admin-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describeEachDialect('tradelab admin grant|revoke', (database) => {
  const db = () => database().handle.db;

  function tradelab(args: string[]) {
    const options = database().connectionOptions;
    const env: Record<string, string> = options.url
      ? { DATABASE_URL: options.url, DATABASE_SCHEMA: options.pgSchema ?? 'public' }
      : { DATA_DIR: path.dirname(options.sqlitePath) };
    // The CLI opens DATA_DIR/tradelab.sqlite: give it a directory where that name links to the test file.
    if (!options.url) {
      const dir = path.join(dataDir, path.basename(options.sqlitePath));
      fs.mkdirSync(dir, { recursive: true });
      const link = path.join(dir, 'tradelab.sqlite');
      if (!fs.existsSync(link)) fs.symlinkSync(options.sqlitePath, link);
      env.DATA_DIR = dir;
    }
    return run(TSX, ['src/cli.ts', ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  }

  it('grants and revokes the admin role by email, audited as the system; an unknown email exits 1', async () => {
    await db()
      .insertInto('users')
      .values({ id: '6f1c2b8e-2f4e-4d2a-9a51-0a2f5c1d7e11', email: 'kim@example.com', role: 'user', created_at: '2026-03-01T00:00:00.000Z', webauthn_user_id: 'h'.repeat(43), email_verified_at: '2026-03-01T00:00:00.000Z' })
      .execute();

    const granted = await tradelab(['admin', 'grant', 'Kim@Example.com']);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('kim@example.com: is now an admin');
    expect((await db().selectFrom('users').select('role').where('email', '=', 'kim@example.com').executeTakeFirstOrThrow()).role).toBe('admin');

    const revoked = await tradelab(['admin', 'revoke', 'kim@example.com']);
    expect(revoked.code).toBe(0);
    expect((await db().selectFrom('users').select('role').where('email', '=', 'kim@example.com').executeTakeFirstOrThrow()).role).toBe('user');

    const audit = await db().selectFrom('audit_entries').select(['action', 'actor_user_id', 'target_kind', 'target_id']).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'admin.grant', actor_user_id: null, target_kind: 'user', target_id: '6f1c2b8e-2f4e-4d2a-9a51-0a2f5c1d7e11' },
      { action: 'admin.revoke', actor_user_id: null, target_kind: 'user', target_id: '6f1c2b8e-2f4e-4d2a-9a51-0a2f5c1d7e11' },
    ]);

    const unknown = await tradelab(['admin', 'grant', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the address nobody@example.com');
  }, 60_000);
});
