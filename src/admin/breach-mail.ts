import { renderMail } from '../platform/mail/layout.js';

const SEVERITY_WORDS = { low: 'low', medium: 'medium', high: 'high' } as const;

/**
 * The notice to one affected person, in plain words: what happened (the admin's summary), what data we hold,
 * what to do. No link to sign in: a breach mail with a sign-in button is what a phishing mail looks like.
 */
export function breachNoticeMail(input: { summary: string; severity: 'low' | 'medium' | 'high'; detectedAt: string; origin: string }) {
  const day = input.detectedAt.slice(0, 10);
  return {
    subject: 'Important: a security incident at tradelab that concerns your account',
    ...renderMail({
      heading: 'A security incident concerns your account',
      paragraphs: [
        `What happened: ${input.summary}`,
        `We found it on ${day} and rate its seriousness as ${SEVERITY_WORDS[input.severity]}. We are telling you within 72 hours, as the law asks, and we have told or are telling the data-protection authority.`,
        'What data we hold about you: your email address, your passkeys’ public keys (these are not secrets: nobody can sign in with them), your strategies, your paper-trading orders and the log of actions on your account. tradelab has no passwords, so none could have been taken.',
        'What to do: nothing is needed to keep your account safe, because passkeys cannot be copied from our side. Be wary of mails or calls that claim to be from tradelab and ask you to sign in, pay, or share a code: we never do that. If you want to, open tradelab yourself (type the address, do not follow links in mails), look at your devices and remove any passkey you do not recognise.',
        'If you have questions, reply to this mail.',
      ],
      footer: `You receive this because you have an account at ${input.origin}. This is a legal notice, sent once.`,
    }),
  };
}
