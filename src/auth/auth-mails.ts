import { renderMail } from '../platform/mail/layout.js';
import type { OutgoingMail } from '../platform/mail/outbox.js';

type Mail = Omit<OutgoingMail, 'to' | 'userId'>;

export function verificationMail(link: string): Mail {
  return {
    subject: 'Confirm your email address for tradelab',
    ...renderMail({
      heading: 'Confirm your email address',
      paragraphs: [
        'Open the link below and press "Confirm" to finish creating your tradelab account. The link works once, for 15 minutes.',
        'If you did not sign up, ignore this mail: nothing happens without the confirmation.',
      ],
      action: { label: 'Confirm my address', url: link },
    }),
  };
}

export function alreadyRegisteredMail(origin: string): Mail {
  return {
    subject: 'Someone tried to sign up to tradelab with your address',
    ...renderMail({
      heading: 'Your address already has an account',
      paragraphs: [
        'Someone (perhaps you) tried to create a new tradelab account with this email address. It already belongs to your account, so nothing was changed.',
        'If it was you, sign in with your passkey instead. If you lost your passkeys, use "Recover access" on the sign-in page.',
      ],
      action: { label: 'Go to tradelab', url: origin },
    }),
  };
}

export function recoveryMail(link: string): Mail {
  return {
    subject: 'Recover access to your tradelab account',
    ...renderMail({
      heading: 'Recover access with a new passkey',
      paragraphs: [
        'Open the link below and press "Create a new passkey". Your existing passkeys will stop working and every device will be signed out. The link works once, for 15 minutes.',
        'For 72 hours after a recovery no new orders can be placed, so that an intruder cannot trade at once.',
        'If you did not ask for this, ignore this mail: nothing changes without the link.',
      ],
      action: { label: 'Create a new passkey', url: link },
    }),
  };
}

export function passkeysResetMail(origin: string, cooldownUntil: string): Mail {
  return {
    subject: 'Your tradelab passkeys were reset',
    ...renderMail({
      heading: 'Your passkeys were reset',
      paragraphs: [
        'A new passkey was just created for your account through an email recovery link. All previous passkeys were removed and every device was signed out.',
        `New orders are refused until ${cooldownUntil} (72 hours).`,
        'If this was not you, someone can read your email: secure your mailbox, then recover your account again and contact the operator.',
      ],
      action: { label: 'Go to tradelab', url: origin },
    }),
  };
}
