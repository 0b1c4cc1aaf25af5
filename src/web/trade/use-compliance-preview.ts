import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import { useSession } from '../auth/session';
import { isSignedOut } from '../library/errors';
import type { ComplianceRequest, ComplianceResult } from '../library/types';

/** How long the ticket must stay unchanged before it is checked: one request per pause in typing, not per key. */
export const PREVIEW_DELAY_MS = 500;

export type Preview<T = ComplianceResult> =
  | { readonly state: 'idle' }
  | { readonly state: 'checking' }
  | { readonly state: 'done'; readonly key: string; readonly result: T }
  | { readonly state: 'failed'; readonly message: string };

/**
 * The soft warning: the ticket's order checked with `POST /api/trading/compliance-check` once it has stayed the
 * same for PREVIEW_DELAY_MS. Only the answer for the ticket as it stands is kept (an answer for an older ticket is
 * dropped), and `key` (the request as JSON) tells the page which ticket a verdict belongs to.
 */
export function useCompliancePreview(request: ComplianceRequest | undefined): Preview {
  return useServerPreview<ComplianceResult>('/api/trading/compliance-check', request);
}

/** `request` posted to `path` once it has stayed the same for PREVIEW_DELAY_MS; the answer for the request as it stands. */
export function useServerPreview<T>(path: string, request: object | undefined): Preview<T> {
  const key = request === undefined ? undefined : JSON.stringify(request);
  return useDelayedAnswer<T>(key === undefined ? undefined : `${path}\u0000${key}`, key ?? '', () => api.post<T>(path, request));
}

/** `GET path` once it has stayed the same for PREVIEW_DELAY_MS (undefined: nothing to ask); `key` is the path. */
export function useServerGet<T>(path: string | undefined): Preview<T> {
  return useDelayedAnswer<T>(path, path ?? '', () => api.get<T>(path!));
}

/** `load()` once `dependency` has stayed the same for PREVIEW_DELAY_MS; only the answer for the current one is kept. */
function useDelayedAnswer<T>(dependency: string | undefined, key: string, load: () => Promise<T>): Preview<T> {
  const { reload } = useSession();
  const [preview, setPreview] = useState<Preview<T>>({ state: 'idle' });
  useEffect(() => {
    if (dependency === undefined) return void setPreview({ state: 'idle' });
    let current = true;
    setPreview({ state: 'checking' });
    const timer = setTimeout(async () => {
      try {
        const result = await load();
        if (current) setPreview({ state: 'done', key, result });
      } catch (error) {
        if (!current) return;
        if (isSignedOut(error)) return void reload();
        setPreview({ state: 'failed', message: describeError(error) });
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [dependency]);
  return preview;
}
