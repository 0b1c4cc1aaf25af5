import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ceremonyWasCancelled, explainPasskeyError } from '../auth/passkeys';
import { useSession } from '../auth/session';
import { useStepUpAssertion } from '../auth/step-up';
import { ConfirmDelete } from '../ui/confirm-delete';
import { Notice } from '../ui/form';
import type { ErasureView } from './types';

/**
 * "Delete my account": what happens, in plain words; then the in-place question, whose button asks for the
 * passkey and sends the assertion with the erasure (a fresh step-up). The server ends every session and
 * clears the cookie; the app then shows itself signed out and the page says what was done.
 */
export function EraseSection(props: { onErased: (erased: ErasureView) => void }) {
  const { reload } = useSession();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const withPasskey = useStepUpAssertion(asking && !busy);
  // "Keep it" hands focus back to the button that asked.
  const askButton = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  useEffect(() => {
    if (!asking && kept.current) askButton.current?.focus();
  }, [asking]);

  const erase = async () => {
    setProblem(undefined);
    setBusy(true);
    try {
      const erased = await withPasskey((credential) => api.post<ErasureView>('/api/gdpr/erase', { credential }));
      props.onErased(erased);
      // The cookie is cleared: the session reads as signed out, and the header says so.
      await reload().catch(() => undefined);
    } catch (error) {
      setBusy(false);
      // A 401 may be the passkey refused or the session gone: reading the session again shows which.
      if (error instanceof ApiError && error.status === 401) void reload().catch(() => undefined);
      setProblem(
        ceremonyWasCancelled(error)
          ? 'The passkey prompt was closed, so your account was not deleted. You can try again, or keep it.'
          : `Your account was not deleted. ${explainPasskeyError(error)}`,
      );
    }
  };

  return (
    <section class="privacy__part privacy__erase" aria-labelledby="erase-title">
      <h2 id="erase-title">Delete my account</h2>
      <p>If you delete your account:</p>
      <ul>
        <li>You are signed out at once, on every device: all your sessions end.</li>
        <li>The account cannot be used any more: no one can sign in to it or recover it. Orders still open are canceled.</li>
        <li>
          After 30 days everything we hold about you is deleted for good: profile, passkeys, sessions, strategies, orders, positions and
          exports. Until then your email address stays taken.
        </li>
        <li>
          The audit log keeps its entries about what was done for 2 years, with your identity replaced by a keyed hash; then they are
          deleted too.
        </li>
      </ul>
      <p>Download your data first if you want a copy: after deletion you cannot.</p>
      {!asking && (
        <div class="actions">
          <button type="button" class="danger" ref={askButton} onClick={() => setAsking(true)}>
            Delete my account
          </button>
        </div>
      )}
      {asking && (
        <ConfirmDelete
          class="privacy__confirm"
          name="your account"
          question="Delete your account?"
          deleteLabel={busy ? 'Waiting for your passkey…' : 'Delete my account with my passkey'}
          busy={busy}
          onDelete={erase}
          onKeep={() => {
            setProblem(undefined);
            kept.current = true;
            setAsking(false);
          }}
        >
          Delete your account? This cannot be undone. Confirm with your passkey.
        </ConfirmDelete>
      )}
      {problem && <Notice kind="error">{problem}</Notice>}
    </section>
  );
}
