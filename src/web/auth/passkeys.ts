import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from '../api';

/**
 * What the accounts pages share about passkeys: words for a failed ceremony, and the WebAuthn signals
 * that tell the browser's passkey manager which passkeys the server still accepts. Signals are
 * feature-detected (Chromium ships them; other browsers may not) and best effort: a refusal is ignored.
 */

/** True when the person closed the passkey prompt, it timed out, or another ceremony replaced it. */
export function ceremonyWasCancelled(error: unknown): boolean {
  if (!(error instanceof WebAuthnError)) return false;
  if (error.code === 'ERROR_CEREMONY_ABORTED') return true;
  return error.code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' && (error.cause as Error | undefined)?.name === 'NotAllowedError';
}

/** A sentence for a failed passkey ceremony or API call, in plain words with what to do next. */
export function explainPasskeyError(error: unknown): string {
  if (error instanceof WebAuthnError) {
    if (ceremonyWasCancelled(error)) return 'The passkey prompt was closed or timed out, so nothing was changed. Try again when you are ready.';
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
      return 'This device already holds a passkey for your account: you can sign in with it as it is.';
    }
    return `Your browser could not use a passkey (${error.message}). Try again, or try another browser or device.`;
  }
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'rate_limited':
        return 'Too many attempts from your network in a short time. Wait a minute, then try again.';
      case 'network_error':
        return 'The server could not be reached. Check your connection and try again.';
      case 'challenge_invalid':
        return 'That took too long (a passkey request is valid for one minute). Please try again.';
      default:
        return error.message;
    }
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/** The RP ID the server uses: its host name, which is ours (the app is served by the API's origin). */
export const RP_ID = location.hostname;

interface SignallingPublicKeyCredential {
  signalUnknownCredential?: (options: { rpId: string; credentialId: string }) => Promise<void>;
  signalAllAcceptedCredentials?: (options: { rpId: string; userId: string; allAcceptedCredentialIds: string[] }) => Promise<void>;
  signalCurrentUserDetails?: (options: { rpId: string; userId: string; name: string; displayName: string }) => Promise<void>;
}

function signals(): SignallingPublicKeyCredential {
  return (typeof PublicKeyCredential === 'undefined' ? {} : PublicKeyCredential) as SignallingPublicKeyCredential;
}

/**
 * Tells the browser that the server does not know this passkey, so its manager can stop offering it.
 * Resolves when the browser has taken the signal (or at once where signals are not supported).
 */
export async function signalUnknownCredential(credentialId: string): Promise<void> {
  await signals().signalUnknownCredential?.({ rpId: RP_ID, credentialId })?.catch(() => undefined);
}

/** Tells the browser the complete list of this account's passkeys; others it holds for the account may go. */
export function signalAcceptedCredentials(userHandle: string, credentialIds: readonly string[]): void {
  signals()
    .signalAllAcceptedCredentials?.({ rpId: RP_ID, userId: userHandle, allAcceptedCredentialIds: [...credentialIds] })
    ?.catch(() => undefined);
}

/** Tells the browser the account's current name, so its passkey manager shows the right one. */
export function signalUserDetails(userHandle: string, email: string, displayName: string | null): void {
  signals()
    .signalCurrentUserDetails?.({ rpId: RP_ID, userId: userHandle, name: email, displayName: displayName || email })
    ?.catch(() => undefined);
}
