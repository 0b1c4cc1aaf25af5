import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../../src/app.js';
import { createJobRunner, type JobRunner } from '../../../src/job-runner.js';
import { loadDemoDataIfEmpty } from '../../../src/market/bar-store.service.js';
import { loadConfig, type AuthRollout } from '../../../src/platform/config.js';
import type { DialectName } from '../../../src/platform/db/database.js';
import { createTestDatabase } from '../../helpers/dialects.js';
import { OFFLINE } from '../../helpers/offline.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../platform/mail/smtp-test-server.js';
import { DEFAULT_WEB_ROOT } from '../../../src/platform/http/web-app.js';

export interface WebServer {
  /** `http://localhost:<port>`: the PUBLIC_ORIGIN, and so the WebAuthn RP ID is `localhost`. */
  readonly origin: string;
  readonly app: App;
  readonly smtp: TestSmtpServer;
  /** The data folder (the SQLite file): another server given it as `env.DATA_DIR` shares the database. */
  readonly dataDir: string;
  /** Waits for a mail to `to` whose subject matches, delivered over SMTP by the real job worker. */
  mailTo(to: string, subject: RegExp, options?: { after?: number }): Promise<ReceivedMail>;
  /** The first link in a mail's text that starts with the origin. */
  linkIn(mail: ReceivedMail): string;
  close(): Promise<void>;
}

/**
 * The whole service as `tradelab serve` runs it, for a real browser: the built web app, SQLite in a
 * fresh data folder (or a fresh PostgreSQL schema) with the demo SPX bars, the job worker running, and mail going over SMTP to a
 * local smtp-server. `env` overrides the configuration: `DATA_DIR` of a running server starts a second instance on
 * the same SQLite database (with other flags, say); that folder is left to the server that made it. `authV1` sets
 * AUTH_V1 (`off`: the single-operator tool, which the loopback HOST here allows).
 */
export async function startWebServer(options: { dialect?: DialectName; env?: Record<string, string>; authV1?: AuthRollout } = {}): Promise<WebServer> {
  if (!existsSync(path.join(DEFAULT_WEB_ROOT, 'index.html'))) throw new Error('dist/web is not built (the global setup builds it)');
  const smtp = await startSmtpServer();
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const sharedDir = options.env?.DATA_DIR;
  const dataDir = sharedDir ?? mkdtempSync(path.join(os.tmpdir(), 'tradelab-web-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: origin,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    ...OFFLINE,
    ...(options.authV1 ? { AUTH_V1: options.authV1 } : {}),
    ...options.env,
  });
  // PostgreSQL: a fresh schema of the test database, dropped on close (as every database test does).
  const database = options.dialect === 'postgres' ? await createTestDatabase('postgres') : undefined;
  const app = await buildApp(config, database ? { database: database.handle } : {});
  await loadDemoDataIfEmpty(app.platform.db, app.platform.clock, app.log);
  const jobs: JobRunner = createJobRunner(app.platform, { pollMs: 50 });
  await app.listen({ port, host: '127.0.0.1' });
  jobs.start();

  return {
    origin,
    app,
    smtp,
    dataDir,
    async mailTo(to, subject, options = {}) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const mail = smtp.received
          .slice(options.after ?? 0)
          .find((received) => received.envelope.to.includes(to) && subject.test(received.mail.subject ?? ''));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within 15 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    linkIn(mail) {
      const link = (mail.mail.text ?? '').match(new RegExp(`${origin}/\\S+`))?.[0];
      if (!link) throw new Error(`no ${origin} link in mail "${mail.mail.subject}"`);
      return link;
    },
    async close() {
      await jobs.stop();
      await app.close();
      await database?.drop();
      await smtp.close();
      if (sharedDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
