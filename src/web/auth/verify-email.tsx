import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Link, useLocation } from '../router';
import { Notice } from '../ui/form';
import { useFocusOn } from './focus';
import { explainLinkProblem } from './link-problems';
import { useSession } from './session';

type Outcome = { kind: 'confirmed' } | { kind: 'used' } | { kind: 'problem'; message: string };

/**
 * Opened from the verification mail (`/verify-email?token=…`). It calls the API only when the person
 * presses the button: a mail scanner that opens links and runs JavaScript must not confirm an address
 * on behalf of someone who registered it without owning the inbox (docs/auth.md, "Abandoned registrations").
 * The same page takes the link of an address change (`rectification`, from "Privacy and data"): signed in,
 * it reads the session again so the new address shows, and leads back to that page rather than to sign-in.
 */
export function VerifyEmailPage() {
  const token = useLocation().query.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const heading = useFocusOn<HTMLHeadingElement>(outcome?.kind ?? 'start');
  const { session, reload } = useSession();

  const confirm = async () => {
    setBusy(true);
    try {
      await api.get(`/api/auth/email/verify?token=${encodeURIComponent(token)}`);
      setOutcome({ kind: 'confirmed' });
      if (session) await reload().catch(() => undefined);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'link_used') setOutcome({ kind: 'used' });
      else setOutcome({ kind: 'problem', message: explainLinkProblem(error, 'verify') });
    } finally {
      setBusy(false);
    }
  };

  if (outcome?.kind === 'confirmed' || outcome?.kind === 'used') {
    return (
      <section class="page narrow">
        <h1 ref={heading} tabIndex={-1}>
          {outcome.kind === 'confirmed' ? 'Your address is confirmed' : 'This link was already used'}
        </h1>
        <Notice kind="success">
          {outcome.kind === 'confirmed'
            ? 'Thank you: your email address is confirmed.'
            : 'Each link works once, and this one has been used: your address is confirmed.'}{' '}
          {session ? `Your account uses ${session.email}.` : 'You can now sign in with your passkey.'}
        </Notice>
        <p>
          {session ? (
            <Link href="/privacy" class="button">
              Back to Privacy and data
            </Link>
          ) : (
            <Link href="/sign-in" class="button">
              Sign in
            </Link>
          )}
        </p>
      </section>
    );
  }

  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        {outcome ? 'The address was not confirmed' : 'Confirm your email address'}
      </h1>
      {!token && (
        <Notice kind="error">
          This page needs the link from the mail we sent you. Open the link from the mail, or copy the whole link into the address bar.
        </Notice>
      )}
      {token && !outcome && (
        <>
          <p>Press the button to confirm that this address is yours. After that you can sign in with your passkey.</p>
          <div class="actions">
            <button type="button" onClick={confirm} disabled={busy}>
              {busy ? 'Confirming…' : 'Confirm my address'}
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'problem' && (
        <>
          <Notice kind="error">{outcome.message}</Notice>
          <p>
            <Link href="/sign-in">Go to sign in</Link>
          </p>
        </>
      )}
    </section>
  );
}
