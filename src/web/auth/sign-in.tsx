import { startAuthentication, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { ComponentChildren } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Link, navigate, useLocation } from '../router';
import { Notice, TextField } from '../ui/form';
import { useConditionalSignIn } from './conditional-sign-in';
import { useFocusOn } from './focus';
import { pathAfterSignIn } from './next-path';
import { useFreshOptions } from './fresh-options';
import { ceremonyWasCancelled, explainPasskeyError, signalUnknownCredential } from './passkeys';
import { useSession } from './session';

const fetchLoginOptions = () => api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/login/options');

/**
 * Usernameless sign-in: one button for the passkey prompt, and passkey autofill on the email field where
 * the browser offers it. Both may be live at once: pressing the button aborts the pending autofill request
 * (`startAuthentication` does it through `WebAuthnAbortService`), and the autofill request starts again after.
 */
export function SignInPage() {
  const { session, reload } = useSession();
  const next = pathAfterSignIn(useLocation().query.get('next'), location.origin);
  const [busy, setBusy] = useState(false);
  // The passkey was given (by the button or autofill) and the server is checking it.
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<ComponentChildren>(undefined);
  const heading = useFocusOn<HTMLHeadingElement>('sign-in');
  const signedOut = session === null;
  const modalOptions = useFreshOptions(signedOut ? fetchLoginOptions : undefined);

  const finish = useCallback(
    async (assertion: AuthenticationResponseJSON): Promise<boolean> => {
      setChecking(true);
      try {
        await api.post('/api/auth/login/verify', assertion);
        await reload();
        navigate(next);
        return true;
      } catch (error) {
        setChecking(false);
        setProblem(explainSignInError(error));
        // Before any new request: the browser should no longer offer this passkey.
        if (error instanceof ApiError && error.code === 'unknown_credential') await signalUnknownCredential(assertion.id);
        return false;
      }
    },
    [next, reload],
  );
  const autofill = useConditionalSignIn(signedOut, finish, fetchLoginOptions);

  const signIn = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    setBusy(true);
    let signedIn = false;
    try {
      const prefetched = modalOptions.take();
      autofill.pause();
      // With the options at hand nothing is awaited before the WebAuthn call, so Safari keeps the click's gesture.
      const assertion = await startAuthentication({ optionsJSON: prefetched ?? (await modalOptions.fetchNow()) });
      signedIn = await finish(assertion);
    } catch (error) {
      setProblem(ceremonyWasCancelled(error) ? 'The passkey prompt was closed or timed out. Press the button to try again.' : explainSignInError(error));
    } finally {
      setBusy(false);
      if (!signedIn) autofill.restart();
    }
  };

  if (session) {
    return (
      <section class="page narrow">
        <h1 ref={heading} tabIndex={-1}>
          Sign in
        </h1>
        <p>
          You are signed in as <strong>{session.email}</strong>. <Link href="/devices">See your passkeys</Link>.
        </p>
      </section>
    );
  }

  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Sign in
      </h1>
      <p>Sign in with the passkey you made when you created your account, or with one you added later.</p>
      <form onSubmit={signIn} noValidate>
        {autofill.supported && (
          <TextField
            label="Email address"
            type="email"
            name="username"
            autocomplete="username webauthn"
            hint="Your browser may offer your passkey when you select this field. You do not have to type anything: the button works on its own."
          />
        )}
        {problem && <Notice kind="error">{problem}</Notice>}
        {checking && <Notice kind="info">Signing you in…</Notice>}
        <div class="actions">
          <button type="submit" disabled={busy || checking}>
            {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
          </button>
        </div>
      </form>
      <p class="muted">
        New here? <Link href="/sign-up">Create an account</Link>. Lost every device with your passkeys?{' '}
        <Link href="/recover">Recover your account by email</Link>.
      </p>
    </section>
  );
}

function explainSignInError(error: unknown): ComponentChildren {
  if (!(error instanceof ApiError)) return explainPasskeyError(error);
  switch (error.code) {
    case 'unknown_credential':
      return (
        <>
          We do not know this passkey: it was deleted from its account (on the passkeys page, or by an account recovery), or it belongs
          to an account on another site. We asked your browser to stop offering it. Use another passkey, or{' '}
          <Link href="/recover">recover your account by email</Link> if you have none left.
        </>
      );
    case 'email_unverified':
      return 'Confirm your email address first. We have sent you a fresh link (it works for 15 minutes): open it, press “Confirm my address”, then sign in here.';
    case 'authentication_failed':
      return 'That passkey could not be verified. Try again, or use another passkey.';
    default:
      return explainPasskeyError(error);
  }
}
