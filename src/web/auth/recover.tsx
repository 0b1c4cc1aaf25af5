import { startRegistration, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useRef, useState } from 'preact/hooks';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { api, ApiError } from '../api';
import { Link, useLocation } from '../router';
import { Notice } from '../ui/form';
import { useFocusOn } from './focus';
import { EmailField } from './email-field';
import { useFreshOptions } from './fresh-options';
import { explainLinkProblem } from './link-problems';
import { ceremonyWasCancelled, explainPasskeyError, signalAcceptedCredentials } from './passkeys';
import { useSession } from './session';

/**
 * Account recovery by email, the one fallback when every passkey is lost. Without a token: ask for the
 * link. With `?token=` (from the mail): say what continuing does, then register a new passkey.
 */
export function RecoverPage() {
  const token = useLocation().query.get('token');
  return token ? <CompleteRecovery token={token} /> : <AskForLink />;
}

function AskForLink() {
  const heading = useFocusOn<HTMLHeadingElement>('ask');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, error);
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const sentRef = useFocusOn<HTMLDivElement>(sentTo);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    if (!email.trim()) return setError('Enter the email address of your account.');
    setBusy(true);
    try {
      await api.post('/api/auth/recovery/start', { email: email.trim() });
      setSentTo(email.trim());
    } catch (problem) {
      setError(problem instanceof ApiError && problem.field === 'email' ? 'Enter the email address of your account (at most 254 characters).' : explainPasskeyError(problem));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Recover your account
      </h1>
      <p>
        Lost every device with a passkey? We can mail you a link to make a new passkey. Still have one? <Link href="/sign-in">Sign in</Link>{' '}
        and add this device on the passkeys page instead.
      </p>
      {sentTo && (
        <div ref={sentRef} tabIndex={-1}>
          <Notice kind="success">
            If an account exists for <strong>{sentTo}</strong>, a recovery link is on its way. It works for 15 minutes. No mail after a few
            minutes? Look in your spam folder, or ask again below.
          </Notice>
        </div>
      )}
      <form ref={form} onSubmit={submit} noValidate>
        <EmailField label="Email address of your account" value={email} onValue={setEmail} error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : sentTo ? 'Send another link' : 'Send me a recovery link'}
          </button>
        </div>
      </form>
    </section>
  );
}

const COOLDOWN_HOURS = 72;

function isDeadLink(error: unknown): boolean {
  return error instanceof ApiError && ['link_expired', 'link_used', 'link_invalid'].includes(error.code);
}

function CompleteRecovery(props: { token: string }) {
  const { reload } = useSession();
  const [state, setState] = useState<'ready' | 'busy' | 'done'>('ready');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [linkDead, setLinkDead] = useState(false);
  const heading = useFocusOn<HTMLHeadingElement>(state === 'done' ? 'done' : linkDead ? 'dead' : 'ready');
  // The options check the link without using it, so the page can say at once when it is dead.
  const fresh = useFreshOptions(
    state === 'done' || linkDead ? undefined : () => api.post<PublicKeyCredentialCreationOptionsJSON>('/api/auth/recovery/complete', { token: props.token }),
    {
      onError: (error) => {
        if (!isDeadLink(error)) return;
        setLinkDead(true);
        setProblem(explainLinkProblem(error, 'recover'));
      },
      // Once used, the link is spent: fetching again would only be refused.
      refillAfterUse: false,
    },
  );

  const recover = async () => {
    setProblem(undefined);
    setState('busy');
    let credential: RegistrationResponseJSON;
    try {
      const prefetched = fresh.take();
      // No await before the WebAuthn call when the options are at hand: Safari keeps the click's gesture.
      credential = await startRegistration({ optionsJSON: prefetched ?? (await fresh.fetchNow()) });
      await api.post('/api/auth/recovery/complete', { token: props.token, credential });
    } catch (error) {
      setState('ready');
      if (isDeadLink(error)) setLinkDead(true);
      // The link is not used yet: options at hand again, so the next press keeps Safari's gesture.
      else fresh.renew();
      setProblem(ceremonyWasCancelled(error) ? 'The passkey prompt was closed, so nothing was changed. Press the button to try again.' : explainLinkProblem(error, 'recover'));
      return;
    }
    // Recovered (the link is spent): what follows must not turn into an error on this page.
    const session = await reload().catch(() => null);
    if (session) signalAcceptedCredentials(session.user_handle, [credential.id]);
    setState('done');
  };

  if (state === 'done') {
    return (
      <section class="page narrow">
        <h1 ref={heading} tabIndex={-1}>
          Your account is recovered
        </h1>
        <Notice kind="success">You are signed in with your new passkey.</Notice>
        <ul>
          <li>Every earlier passkey of your account was revoked, and every device that was signed in has been signed out.</li>
          <li>
            Trading is paused for {COOLDOWN_HOURS} hours, in case someone else asked for this recovery. Backtests and your strategy
            library work as usual.
          </li>
          <li>We mailed you a note that your passkeys were reset.</li>
        </ul>
        <p>
          <Link href="/devices">See your passkeys</Link> — add one on another device so you have a spare.
        </p>
      </section>
    );
  }

  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        {linkDead ? 'This recovery link does not work' : 'Recover your account'}
      </h1>
      {problem && <Notice kind="error">{problem}</Notice>}
      {linkDead ? (
        <p>
          <Link href="/recover">Ask for a new recovery link</Link>
        </p>
      ) : (
        <>
          <p>Continuing makes a new passkey on this device for your account, and then:</p>
          <ul>
            <li>
              <strong>every passkey your account has now is revoked</strong>, on all your devices;
            </li>
            <li>
              <strong>every device that is signed in is signed out</strong>;
            </li>
            <li>
              <strong>trading is paused for {COOLDOWN_HOURS} hours</strong>, a safety delay in case this was not you.
            </li>
          </ul>
          <p>If you still have a device with a passkey, do not continue: sign in there and add a passkey for this device instead.</p>
          <div class="actions">
            <button type="button" onClick={recover} disabled={state === 'busy'}>
              {state === 'busy' ? 'Waiting for your passkey…' : 'Make a new passkey and revoke the old ones'}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
