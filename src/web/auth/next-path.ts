/**
 * Where to go after signing in: the `next` path when it is a page of this site, else the passkeys page.
 * Resolved as the browser would resolve it, so `//host` and `/\host` (another site) are refused.
 */
export function pathAfterSignIn(next: string | null, origin: string): string {
  if (!next?.startsWith('/')) return '/devices';
  const url = new URL(next, origin);
  if (url.origin !== origin || url.pathname.startsWith('/sign-in')) return '/devices';
  return url.pathname + url.search;
}
