import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useRef, useState } from 'preact/hooks';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { api, ApiError } from '../api';
import { Link, navigate } from '../router';
import { Notice, TextField } from '../ui/form';
import { useFocusOn } from './focus';
import { explainPasskeyError } from './passkeys';
import { rememberRegisteredEmail } from './sign-up-state';
import { EmailField } from './email-field';

type FieldErrors = Partial<Record<'email' | 'display_name', string>>;

/** The API names the field; these say what to fix (its own message is written for developers). */
const FIELD_PROBLEMS = {
  email: 'Enter a valid email address, such as ann@example.com (at most 254 characters).',
  display_name: 'Use at most 64 characters for the display name.',
} as const;

/** Create an account: email and display name, then a passkey on this device, then the mail to confirm. */
export function SignUpPage() {
  const heading = useFocusOn<HTMLHeadingElement>('sign-up');
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, fieldErrors);
  const [problem, setProblem] = useState<string | undefined>(undefined);

  const prepared = usePreparedRegistration();

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    setFieldErrors({});
    if (!email.trim()) return setFieldErrors({ email: 'Enter your email address: we send a link to confirm it.' });
    if (!looksLikeEmail(email)) return setFieldErrors({ email: FIELD_PROBLEMS.email });
    setBusy(true);
    try {
      const ready = prepared.take(email, displayName);
      // No await before the WebAuthn call when options are at hand: Safari keeps the click's gesture.
      const options = ready ?? (await registrationOptions(email, displayName));
      const credential = await startRegistration({ optionsJSON: options });
      await api.post('/api/auth/register/verify', credential);
      rememberRegisteredEmail(email.trim());
      navigate('/check-inbox');
    } catch (error) {
      if (error instanceof ApiError && (error.field === 'email' || error.field === 'display_name')) {
        setFieldErrors({ [error.field]: FIELD_PROBLEMS[error.field] });
      } else if (error instanceof ApiError && error.code === 'registration_closed') {
        setProblem('Sign-up is open to invited addresses only for now. Ask the operator to invite yours, or try again later.');
      } else if (error instanceof ApiError && error.code === 'registration_failed') {
        setProblem('The account could not be created this time (another sign-up with this address was under way). Please start again.');
      } else {
        setProblem(explainPasskeyError(error));
        prepared.prepare(email, displayName);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Create an account
      </h1>
      <p>
        tradelab uses passkeys instead of passwords: your phone or computer unlocks with your fingerprint, face or screen lock, and
        nothing secret is sent to us.
      </p>
      <form ref={form} onSubmit={submit} noValidate>
        <EmailField
          label="Email address"
          value={email}
          onValue={setEmail}
          onBlur={() => prepared.prepare(email, displayName)}
          error={fieldErrors.email}
          hint="We send a link to confirm it. It is also how you recover your account."
        />
        <TextField
          label="Display name (optional)"
          name="display_name"
          autocomplete="nickname"
          maxLength={64}
          value={displayName}
          onInput={(event) => setDisplayName(event.currentTarget.value)}
          onBlur={() => prepared.prepare(email, displayName)}
          error={fieldErrors.display_name}
          hint="How we greet you. Your passkey manager shows it beside the passkey."
        />
        {problem && <Notice kind="error">{problem}</Notice>}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Waiting for your passkey…' : 'Create account with a passkey'}
          </button>
        </div>
      </form>
      <p class="muted">
        Already have an account? <Link href="/sign-in">Sign in</Link>.
      </p>
    </section>
  );
}

/** Challenges live 60 s on the server; options older than this are fetched again. */
const FRESH_FOR_MS = 50_000;

function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(email.trim());
}

function registrationOptions(email: string, displayName: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return api.post<PublicKeyCredentialCreationOptionsJSON>('/api/auth/register/options', {
    email: email.trim(),
    display_name: displayName.trim(),
  });
}

/**
 * Registration options fetched when the person leaves a field, for the address and name then typed, so
 * that the click can call WebAuthn at once (Safari's user-gesture rule). They are used only if both
 * fields are unchanged and the options are fresh; a failed fetch is silent (the click fetches again and
 * shows the problem).
 */
function usePreparedRegistration() {
  const held = useRef<{ key: string; at: number; options: PublicKeyCredentialCreationOptionsJSON } | undefined>(undefined);
  const keyOf = (email: string, displayName: string) => JSON.stringify([email.trim(), displayName.trim()]);
  return {
    prepare(email: string, displayName: string) {
      if (!looksLikeEmail(email)) return;
      const key = keyOf(email, displayName);
      if (held.current?.key === key && Date.now() - held.current.at < FRESH_FOR_MS) return;
      const at = Date.now();
      registrationOptions(email, displayName).then(
        (options) => (held.current = { key, at, options }),
        () => undefined,
      );
    },
    take(email: string, displayName: string): PublicKeyCredentialCreationOptionsJSON | undefined {
      const ready = held.current;
      held.current = undefined;
      const fresh = ready && ready.key === keyOf(email, displayName) && Date.now() - ready.at < FRESH_FOR_MS;
      return fresh ? ready.options : undefined;
    },
  };
}
