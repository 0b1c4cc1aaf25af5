import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { EmailField } from '../auth/email-field';
import { useFocusOn } from '../auth/focus';
import { explainPasskeyError } from '../auth/passkeys';
import { useSession, type SessionView } from '../auth/session';
import { useStepUpAssertion } from '../auth/step-up';
import { Notice, TextField } from '../ui/form';
import type { ProfilePatch, ProfileView } from './types';

const DISPLAY_NAME_MAX = 64;
const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Message = { kind: 'success' | 'error' | 'info'; text: string };

const patchProfile = (body: ProfilePatch) => api.patch<ProfileView>('/api/gdpr/profile', body);

/** Display name (changes at once) and email address (a passkey, then the link mailed to the new address). */
export function ProfileSection(props: { session: SessionView }) {
  return (
    <section class="privacy__part" aria-labelledby="profile-title">
      <h2 id="profile-title">Your name and address</h2>
      <DisplayNameForm session={props.session} />
      <EmailForm session={props.session} />
    </section>
  );
}

function DisplayNameForm(props: { session: SessionView }) {
  const { reload } = useSession();
  const [name, setName] = useState(props.session.display_name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<Message | undefined>(undefined);
  const messageRef = useFocusOn<HTMLDivElement>(message);

  const save = async (event: Event) => {
    event.preventDefault();
    setMessage(undefined);
    const trimmed = name.trim();
    if (trimmed.length > DISPLAY_NAME_MAX) return setError(`Use at most ${DISPLAY_NAME_MAX} characters for the display name.`);
    setError(undefined);
    setBusy(true);
    try {
      const answer = await patchProfile({ display_name: trimmed === '' ? null : trimmed });
      setName(answer.display_name ?? '');
      setMessage({ kind: 'success', text: answer.display_name ? `Saved: your display name is now “${answer.display_name}”.` : 'Saved: you have no display name now.' });
      void reload();
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 401) return void reload();
      if (refusal instanceof ApiError && refusal.field === 'display_name') setError(refusal.message);
      else setMessage({ kind: 'error', text: explainPasskeyError(refusal) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="privacy__form" onSubmit={save} noValidate>
      <TextField
        label="Display name"
        name="display_name"
        autocomplete="nickname"
        maxLength={DISPLAY_NAME_MAX}
        value={name}
        onInput={(event) => setName(event.currentTarget.value)}
        hint="Shown in the app and by your passkey manager. Leave it empty to have none."
        error={error}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save display name'}
        </button>
      </div>
      {message && (
        <div ref={messageRef} tabIndex={-1}>
          <Notice kind={message.kind}>{message.text}</Notice>
        </div>
      )}
    </form>
  );
}

function EmailForm(props: { session: SessionView }) {
  const { reload } = useSession();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  // A change still waiting for its link, also after a reload.
  useEffect(() => {
    api.get<ProfileView>('/api/gdpr/profile').then(
      (profile) => setPending(profile.pending_email),
      () => undefined,
    );
  }, [props.session.email]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<Message | undefined>(undefined);
  const messageRef = useFocusOn<HTMLDivElement>(message);
  const typed = email.trim();
  // Passkey options are fetched ahead only once a plausible new address is typed.
  const wanted = PLAUSIBLE_EMAIL.test(typed) && typed.toLowerCase() !== props.session.email.toLowerCase();
  const withPasskey = useStepUpAssertion(wanted && !busy);

  const change = async (event: Event) => {
    event.preventDefault();
    setMessage(undefined);
    if (!PLAUSIBLE_EMAIL.test(typed)) return setError('Enter an email address, like name@example.com.');
    if (typed.toLowerCase() === props.session.email.toLowerCase()) return setError('This is already your address.');
    setError(undefined);
    setBusy(true);
    try {
      const answer = await withPasskey((credential) => patchProfile({ email: typed, credential }));
      setPending(answer.pending_email);
      setEmail('');
      setMessage({
        kind: 'success',
        text: `We mailed a link to ${answer.pending_email ?? typed}. Open it within 15 minutes to start using that address; until then you keep ${answer.email}.`,
      });
    } catch (refusal) {
      if (refusal instanceof ApiError && refusal.status === 401) return void reload();
      if (refusal instanceof ApiError && (refusal.field === 'email' || refusal.code === 'email_taken')) setError(refusal.message);
      else setMessage({ kind: 'error', text: explainPasskeyError(refusal) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="privacy__form" onSubmit={change} noValidate>
      <p>
        Your email address is <strong>{props.session.email}</strong>.
      </p>
      {pending && (
        <Notice kind="info">
          Waiting for you to confirm <strong>{pending}</strong>: open the link we mailed there. Until then your address stays{' '}
          {props.session.email}.
        </Notice>
      )}
      <EmailField
        label="New email address"
        value={email}
        onValue={setEmail}
        hint="We ask for your passkey, then mail a link to the new address. The address changes when you open that link (within 15 minutes); we also tell your current address."
        error={error}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Waiting for your passkey…' : 'Change email address'}
        </button>
      </div>
      {message && (
        <div ref={messageRef} tabIndex={-1}>
          <Notice kind={message.kind}>{message.text}</Notice>
        </div>
      )}
    </form>
  );
}
