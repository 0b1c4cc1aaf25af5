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
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 and a random port, plain text (no STARTTLS), no login required.
 * Each accepted mail is parsed with mailparser before the server answers 250, so a mail is in
 * `received` by the time the sender's `sendMail` resolves.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const handle = { refuseRecipients: false };
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
    server.listen(0, '127.0.0.1', () => resolve());
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
