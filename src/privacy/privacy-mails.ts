import { maskEmail } from '../platform/audit/redact.js';
import { renderMail } from '../platform/mail/layout.js';
import type { OutgoingMail } from '../platform/mail/outbox.js';

type Mail = Omit<OutgoingMail, 'to' | 'userId'>;

/** The page of the web app where a person exports, rectifies and erases (`src/web`, "Privacy and data"). */
export const PRIVACY_PAGE = '/privacy';

export function exportReadyMail(origin: string, expiresAt: string): Mail {
  return {
    subject: 'Your tradelab data export is ready',
    ...renderMail({
      heading: 'Your data export is ready',
      paragraphs: [
        'The copy of your data you asked for is ready: a zip file with a README, one JSON file of everything and a CSV file per table.',
        `Sign in and download it from the "Privacy and data" page until ${expiresAt} (7 days); after that it is deleted and you can ask for a new one.`,
      ],
      action: { label: 'Download my data', url: `${origin}${PRIVACY_PAGE}` },
    }),
  };
}

export function emailChangeMail(link: string): Mail {
  return {
    subject: 'Confirm your new email address for tradelab',
    ...renderMail({
      heading: 'Confirm your new email address',
      paragraphs: [
        'You asked to change the email address of your tradelab account to this one. Open the link below to confirm it; until then the old address stays in use. The link works once, for 15 minutes.',
        'If you did not ask for this, ignore this mail: nothing changes without the confirmation.',
      ],
      action: { label: 'Confirm my new address', url: link },
    }),
  };
}

export function emailChangeNoticeMail(origin: string, newEmail: string): Mail {
  return {
    subject: 'Your tradelab email address is being changed',
    ...renderMail({
      heading: 'A change of email address was requested',
      paragraphs: [
        `Someone signed in to your account, confirmed it with a passkey, and asked to move it to ${maskEmail(newEmail)}. The change happens only when the link mailed there is used (within 15 minutes).`,
        'If this was not you, sign in, remove the passkeys you do not recognise, and contact the operator.',
      ],
      action: { label: 'Go to tradelab', url: origin },
    }),
  };
}

export function erasureNoticeMail(origin: string, deletedAt: string, purgeAfter: string): Mail {
  return {
    subject: 'Your tradelab account has been erased',
    ...renderMail({
      heading: 'Your account has been erased',
      paragraphs: [
        `Your tradelab account was erased at ${deletedAt}, confirmed with one of its passkeys. It can no longer be signed in to, and every session and resting order of it has ended.`,
        `Your personal data is kept until ${purgeAfter} (30 days) and then deleted for good; the audit log keeps its entries with your identity replaced by a pseudonym.`,
        'If you did not erase your account, contact the operator of this service before that date.',
      ],
      action: { label: 'Go to tradelab', url: origin },
    }),
  };
}
