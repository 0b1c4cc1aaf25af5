import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../test/platform/mail/smtp-test-server.js';

/** The real SMTP server the soak's instances send to, and the waits of the simulated users on it. */
export class MailCatcher {
  private constructor(private readonly smtp: TestSmtpServer) {}

  static async start(): Promise<MailCatcher> {
    return new MailCatcher(await startSmtpServer());
  }

  /** Waits on a server started elsewhere (a test's). */
  static of(smtp: TestSmtpServer): MailCatcher {
    return new MailCatcher(smtp);
  }

  get url(): string {
    return this.smtp.url;
  }

  /** Every mail accepted for `to` whose subject matches. */
  mailsTo(to: string, subject: RegExp): ReceivedMail[] {
    return this.smtp.received.filter((received) => received.envelope.to.includes(to) && subject.test(received.mail.subject ?? ''));
  }

  /** The first mail for `to` whose subject matches, once it has arrived (as a person checks the inbox until it has). */
  async waitFor(to: string, subject: RegExp, timeoutMs: number): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mailsTo(to, subject)[0];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    return this.smtp.close();
  }
}
