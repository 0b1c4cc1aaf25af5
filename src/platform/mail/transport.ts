import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  /** The outbox id; also the Message-ID, so a mail sent twice after a crash can be told apart as one. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  readonly smtpUrl: string | null;
  readonly mailDir: string;
  readonly logger: FastifyBaseLogger;
}

/** SMTP when `smtpUrl` is set; otherwise each mail becomes an `.eml` file in `mailDir`, named in the log. */
export function createMailTransport(options: MailTransportOptions): MailTransport {
  return options.smtpUrl ? smtpTransport(options.smtpUrl) : fileTransport(options.mailDir, options.logger);
}

/**
 * Nodemailer waits up to 2 minutes to connect and 10 minutes on a silent socket; a hung server would
 * hold the worker (and every job behind it) that long. These turn it into a retry within seconds.
 * A query parameter of the URL (`?socketTimeout=60000`) still overrides them. (`createTransport({ url, … })`
 * would drop every option but the URL; `SMTPTransport` merges the URL into them.)
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(new SMTPTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }));
  return {
    async send(message) {
      await transporter.sendMail(toNodemailer(message));
    },
    close: () => transporter.close(),
  };
}

function fileTransport(mailDir: string, logger: FastifyBaseLogger): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transporter.sendMail(toNodemailer(message));
      await fs.mkdir(mailDir, { recursive: true });
      const file = path.join(mailDir, `${message.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger.info({ file, subject: message.subject }, `mail written to ${file}`);
    },
    close: () => transporter.close(),
  };
}

function toNodemailer(message: MailMessage): nodemailer.SendMailOptions {
  const domain = message.from.replace(/^.*@/, '').replace(/>.*$/, '') || 'localhost';
  return {
    messageId: `<${message.id}@${domain}>`,
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  };
}
