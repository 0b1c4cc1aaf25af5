import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  /** The SMTP envelope: who the server was told the mail is from and for. */
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly mail: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for `createMailTransport({ smtpUrl })`. */
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** While true, every recipient is refused with a 550, as a server rejecting the mail would. */
  refuseRecipients: boolean;
  /**
   * When a number n: the mail that would be the (n+1)th accepted is held, never answered (no 250), so its sender
   * hangs mid-delivery as in a crash window; `held` resolves then. A held mail is not in `received`: the
   * server never accepted it.
   */
  holdAfter: number | null;
  readonly held: Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 and a random port (or `options.port`, to bring a stopped one back where
 * it was), plain text (no STARTTLS), no login required.
 * Each accepted mail is parsed with mailparser before the server answers 250, so a mail is in
 * `received` by the time the sender's `sendMail` resolves.
 */
export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const handle = { refuseRecipients: false, holdAfter: null as number | null, held };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!handle.refuseRecipients) return callback();
      callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (handle.holdAfter !== null && received.length >= handle.holdAfter) {
            handle.holdAfter = null;
            markHeld();
            return;
          }
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          received.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(handle, {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** An `smtp://` URL on which nothing listens: a port that was free a moment ago. */
export async function unusedSmtpUrl(): Promise<string> {
  const probe = await startSmtpServer();
  await probe.close();
  return probe.url;
}
