import { useCallback, useEffect, useRef } from 'preact/hooks';

/** Server challenges live 60 s; options older than this are fetched again before use. */
const FRESH_FOR_MS = 50_000;

export interface FreshOptionsSettings<T> {
  /** Hears of a failed prefetch; no new attempt is scheduled after one (the click, or `renew()`, tries again). */
  onError?: (error: unknown) => void;
  /** Options already at hand, and when they were fetched. */
  initial?: { options: T; at: number };
  /** Fetch the next options as soon as these are handed out (default true). */
  refillAfterUse?: boolean;
}

/**
 * Ceremony options fetched ahead of the click. Safari only lets `navigator.credentials` prompt while the
 * click's user activation lasts, so a click handler must call the WebAuthn API without awaiting a
 * request first. The options are fetched when the page opens, again after each use and every 50 s
 * while the tab is visible (challenges expire after 60 s).
 *
 * `take()` hands out the fresh options once (a challenge is single use) and fetches the next ones; it
 * returns undefined when none are fresh, and the caller then awaits `fetchNow()` (losing the gesture
 * in Safari, which then asks the person to press again). With `refillAfterUse: false`, call `renew()`
 * after a ceremony that failed without using its options up, or the next press has none at hand either.
 */
export function useFreshOptions<T>(fetchOptions: (() => Promise<T>) | undefined, settings: FreshOptionsSettings<T> = {}) {
  const { onError, initial, refillAfterUse = true } = settings;
  const held = useRef<{ options: T; at: number } | undefined>(initial);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Bumped when the page stops wanting options (it went, or has no use for them any more): a fetch
  // still under way then keeps nothing and schedules nothing, so no timer outlives the page.
  const epoch = useRef(0);
  const fetcher = useRef(fetchOptions);
  fetcher.current = fetchOptions;
  const reportError = useRef(onError);
  reportError.current = onError;
  const enabled = fetchOptions !== undefined;

  const refill = useCallback(async () => {
    clearTimeout(timer.current);
    const fetch = fetcher.current;
    if (!fetch) return;
    const started = epoch.current;
    try {
      const options = await fetch();
      if (epoch.current !== started) return;
      held.current = { options, at: Date.now() };
    } catch (error) {
      if (epoch.current !== started) return;
      // Not fatal: the click fetches again and shows the error then.
      held.current = undefined;
      reportError.current?.(error);
      return;
    }
    clearTimeout(timer.current);
    if (document.visibilityState === 'visible') timer.current = setTimeout(refill, FRESH_FOR_MS);
  }, []);

  useEffect(() => {
    if (!enabled) return undefined;
    if (held.current && Date.now() - held.current.at < FRESH_FOR_MS) timer.current = setTimeout(refill, FRESH_FOR_MS - (Date.now() - held.current.at));
    else void refill();
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') return clearTimeout(timer.current);
      if (!held.current || Date.now() - held.current.at > FRESH_FOR_MS) void refill();
      else timer.current = setTimeout(refill, FRESH_FOR_MS - (Date.now() - held.current.at));
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      epoch.current += 1;
      clearTimeout(timer.current);
      document.removeEventListener('visibilitychange', onVisibility);
      held.current = undefined;
    };
  }, [enabled, refill]);

  const take = useCallback((): T | undefined => {
    const fresh = held.current && Date.now() - held.current.at <= FRESH_FOR_MS ? held.current.options : undefined;
    held.current = undefined;
    if (refillAfterUse) void refill();
    else clearTimeout(timer.current);
    return fresh;
  }, [refill, refillAfterUse]);

  const fetchNow = useCallback(async (): Promise<T> => {
    const fetch = fetcher.current;
    if (!fetch) throw new Error('Nothing to fetch.');
    return fetch();
  }, []);

  /** Fetches options ahead of the next press (after a failed ceremony, when `refillAfterUse` is false). */
  const renew = useCallback(() => void refill(), [refill]);

  return { take, fetchNow, renew };
}
