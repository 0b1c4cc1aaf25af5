import { ApiError } from '../api';
import { explainPasskeyError } from './passkeys';

/** What went wrong with a link from a mail, in plain words, for the verify and recover pages. */
export function explainLinkProblem(error: unknown, kind: 'verify' | 'recover'): string {
  const again =
    kind === 'verify'
      ? 'Sign in with your passkey: while your address is unconfirmed, that sends you a fresh link.'
      : 'Ask for a new recovery link below.';
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'link_expired':
        return `This link has expired: links work for 15 minutes. ${again}`;
      case 'link_used':
        return kind === 'verify'
          ? 'This link was already used, so your address is confirmed. You can sign in.'
          : `This link was already used: each link works once. ${again}`;
      case 'link_invalid':
        return `This link is not valid. It may be incomplete (copy the whole link from the mail), or a newer mail replaced it (use the newest one). ${again}`;
      case 'email_taken':
        return 'Another account has confirmed this address in the meantime, so it cannot be moved to yours. Contact support if this is your address.';
    }
  }
  return explainPasskeyError(error);
}
