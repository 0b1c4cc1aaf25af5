import { startAuthentication, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Notice } from '../ui/form';
import { useFreshOptions } from './fresh-options';
import { ceremonyWasCancelled, explainPasskeyError } from './passkeys';
import type { SessionView } from './session';

const REFRESH_EVERY_MS = 30 * 60_000;

/** A refresh rolled the session without asking for a passkey: the dialog has nothing left to do. */
class NoStepUpDue extends Error {}
const SESSION_LIFETIME_MS = 12 * 3_600_000;

/** True when the session's 12-hour window was last rolled more than a refresh period ago. */
function rolledLongAgo(expiresAt: string | null): boolean {
  if (!expiresAt) return true;
  return Date.parse(expiresAt) - Date.now() < SESSION_LIFETIME_MS - REFRESH_EVERY_MS;
}

type Refreshed = { kind: 'rolled' } | { kind: 'step_up'; options: PublicKeyCredentialRequestOptionsJSON };

/** POST session/refresh: rolls the session, or says a passkey is needed first (403 with options). */
async function refreshSession(assertion?: unknown): Promise<Refreshed> {
  try {
    await api.post('/api/auth/session/refresh', assertion ?? {});
    return { kind: 'rolled' };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'step_up_required') {
      return { kind: 'step_up', options: error.body.options as PublicKeyCredentialRequestOptionsJSON };
    }
    throw error;
  }
}

/**
 * Keeps a signed-in session rolling: refreshes it when it loads and every 30 minutes while the tab is
 * visible. Once a day the server wants a fresh passkey assertion; then a dialog asks for it. Declining
 * leaves the session as it is (it still works until it expires).
 */
export function StepUpKeeper(props: { session: SessionView; onSignedOut: () => void }) {
  const [asking, setAsking] = useState<{ options: PublicKeyCredentialRequestOptionsJSON; at: number } | undefined>(undefined);
  const lastRefresh = useRef(0);
  const { onSignedOut } = props;

  const refresh = useCallback(async () => {
    lastRefresh.current = Date.now();
    try {
      const answer = await refreshSession();
      if (answer.kind === 'step_up') setAsking({ options: answer.options, at: Date.now() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) onSignedOut();
      // Otherwise (offline, rate limited) the next round tries again.
    }
  }, [onSignedOut]);

  // A reload or a new tab should not roll (and audit) a session that was rolled minutes ago.
  const { expires_at: expiresAt, step_up_due: stepUpDue } = props.session;
  useEffect(() => {
    if (stepUpDue || rolledLongAgo(expiresAt)) void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, REFRESH_EVERY_MS);
    const onVisibility = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastRefresh.current >= REFRESH_EVERY_MS) void refresh();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [refresh, expiresAt, stepUpDue]);

  return asking ? <StepUpDialog initial={asking} onClose={() => setAsking(undefined)} onSignedOut={onSignedOut} /> : null;
}

const fetchStepUpOptions = () => api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/step-up/options');

/**
 * A fresh step-up for a request that carries it itself (erasing the account, changing the address): the
 * assertion is made from `POST /api/auth/step-up/options` and sent in that request. Options are fetched ahead
 * only while `wanted` (the question is on screen), so an idle page stores no challenges; `assert()` calls the
 * WebAuthn API without awaiting a request first when they are at hand (Safari keeps the click's gesture), and
 * the next options are fetched after a failed attempt (a success usually ends the question; the caller turns
 * `wanted` off and on again to ask anew, or the next press fetches first).
 */
export function useStepUpAssertion(wanted: boolean) {
  const fresh = useFreshOptions(wanted ? fetchStepUpOptions : undefined, { refillAfterUse: false });
  const { take, fetchNow, renew } = fresh;
  /** Runs the passkey prompt and hands the assertion to `send`, the request that carries it. */
  return useCallback(
    async <T,>(send: (credential: AuthenticationResponseJSON) => Promise<T>): Promise<T> => {
      try {
        const prefetched = take();
        const credential = await startAuthentication({ optionsJSON: prefetched ?? (await fetchNow()) });
        return await send(credential);
      } catch (error) {
        // The options were used up or refused: have the next ones at hand, so the next press keeps its gesture.
        if (!(error instanceof ApiError && error.status === 401)) renew();
        throw error;
      }
    },
    [take, fetchNow, renew],
  );
}

function StepUpDialog(props: {
  initial: { options: PublicKeyCredentialRequestOptionsJSON; at: number };
  onClose: () => void;
  onSignedOut: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const fresh = useFreshOptions(
    async () => {
      const answer = await refreshSession();
      if (answer.kind === 'rolled') throw new NoStepUpDue();
      return answer.options;
    },
    // Fetching the next options would be one more 403 (and one more stored challenge) per confirmation.
    { initial: props.initial, refillAfterUse: false },
  );

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const confirm = async () => {
    setProblem(undefined);
    setBusy(true);
    try {
      const prefetched = fresh.take();
      // No await before the WebAuthn call when the options are at hand: Safari keeps the click's gesture.
      const assertion = await startAuthentication({ optionsJSON: prefetched ?? (await fresh.fetchNow()) });
      const answer = await refreshSession(assertion);
      if (answer.kind === 'rolled') props.onClose();
      else setProblem('That passkey did not confirm it is you. Try again.');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return props.onSignedOut();
      if (error instanceof NoStepUpDue) return props.onClose();
      // The options were used up or refused: have the next ones at hand, so the next press keeps its gesture.
      fresh.renew();
      setProblem(ceremonyWasCancelled(error) ? 'The passkey prompt was closed. You can try again, or choose “Not now”.' : explainPasskeyError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      class="step-up"
      aria-labelledby="step-up-title"
      aria-describedby="step-up-why"
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id="step-up-title">Confirm it’s you</h2>
      <p id="step-up-why">
        You have been signed in for a day. To stay signed in, confirm with your passkey. If you choose “Not now”, you stay signed in
        until this session ends, then sign in again.
      </p>
      {problem && <Notice kind="error">{problem}</Notice>}
      <div class="actions">
        <button type="button" onClick={confirm} disabled={busy}>
          {busy ? 'Waiting for your passkey…' : 'Confirm with passkey'}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Not now
        </button>
      </div>
    </dialog>
  );
}
