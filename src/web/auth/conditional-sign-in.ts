import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** A new challenge before the pending one expires (60 s on the server). */
const RENEW_AFTER_MS = 50_000;

/**
 * Passkey autofill (conditional mediation): while `active`, a request waits for the person to pick a
 * passkey from the suggestions of the `autocomplete="username webauthn"` field; the assertion goes to
 * `onAssertion`. The request is renewed every 50 s with a new challenge. A modal ceremony aborts it (one
 * WebAuthn request at a time): call `pause()` before it and `restart()` after.
 *
 * An aborted or failed autofill request is dropped silently: the sign-in button still works.
 */
export function useConditionalSignIn(
  active: boolean,
  /** Resolves true when the person is signed in; false starts the autofill request again. */
  onAssertion: (assertion: AuthenticationResponseJSON) => Promise<boolean>,
  fetchOptions: () => Promise<PublicKeyCredentialRequestOptionsJSON>,
) {
  const [supported, setSupported] = useState(false);
  const handler = useRef(onAssertion);
  handler.current = onAssertion;
  // `stopped`: the page is gone or signed in. `paused`: a modal request owns the WebAuthn API (any new
  // autofill request would abort it). `generation` tells a renewal under way that a newer one replaced it.
  const run = useRef<{ generation: number; stopped: boolean; paused: boolean; timer?: ReturnType<typeof setTimeout> }>({
    generation: 0,
    stopped: true,
    paused: false,
  });

  useEffect(() => {
    let cancelled = false;
    void browserSupportsWebAuthnAutofill().then((yes) => !cancelled && setSupported(yes));
    return () => void (cancelled = true);
  }, []);

  const start = useCallback(async () => {
    const state = run.current;
    if (state.stopped || state.paused) return;
    clearTimeout(state.timer);
    const generation = ++state.generation;
    const current = () => !state.stopped && !state.paused && state.generation === generation;
    let options: PublicKeyCredentialRequestOptionsJSON;
    try {
      options = await fetchOptions();
    } catch {
      // Offline or rate limited: try again later; the button still works meanwhile.
      if (current()) state.timer = setTimeout(() => void start(), RENEW_AFTER_MS);
      return;
    }
    if (!current()) return;
    state.timer = setTimeout(() => void start(), RENEW_AFTER_MS);
    let assertion: AuthenticationResponseJSON;
    try {
      assertion = await startAuthentication({ optionsJSON: options, useBrowserAutofill: true });
    } catch {
      // Aborted (renewed, or the button's modal request took over) or refused: the button remains.
      return;
    }
    // A passkey picked while a renewal was fetching still counts (its challenge is younger than 60 s).
    if (state.stopped || state.paused) return;
    clearTimeout(state.timer);
    state.generation += 1; // the renewal under way, if any, gives up
    const signedIn = await handler.current(assertion);
    if (!signedIn) void start(); // does nothing if a modal request began meanwhile: its end restarts
  }, [fetchOptions]);

  useEffect(() => {
    if (!supported || !active) return undefined;
    const state = run.current;
    state.stopped = false;
    state.paused = false;
    void start();
    return () => {
      state.stopped = true;
      clearTimeout(state.timer);
      // Leaving the page: the pending autofill request must not outlive it.
      WebAuthnAbortService.cancelCeremony();
    };
  }, [supported, active, start]);

  /** Before a modal request: no renewal or restart may start an autofill request that would abort it. */
  const pause = useCallback(() => {
    clearTimeout(run.current.timer);
    run.current.paused = true;
  }, []);
  /** Starts the autofill request again (after the modal request replaced it). */
  const restart = useCallback(() => {
    run.current.paused = false;
    void start();
  }, [start]);
  return { supported, pause, restart };
}
