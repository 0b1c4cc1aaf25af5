import type { ComponentChildren } from 'preact';
import { Link } from '../router';
import { useSession } from '../auth/session';

/**
 * A page of the Strategy Library: its heading, then the page itself for a signed-in person (or, under AUTH_V1=off,
 * the local operator), or what to do when signed out (a link to sign in that comes back here, as the passkeys page does).
 */
export function SignedInPage(props: { title: string; signedOut: string; class?: string; children: () => ComponentChildren }) {
  const { session, authMode } = useSession();
  const open = Boolean(session) || authMode === 'off';
  const here = location.pathname + location.search;
  return (
    <section class={`page library ${props.class ?? ''}`}>
      <h1>{props.title}</h1>
      {session === undefined && !open && <p class="muted">Loading…</p>}
      {session === null && !open && (
        <p>
          You are signed out. <Link href={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in</Link> {props.signedOut}
        </p>
      )}
      {open && props.children()}
    </section>
  );
}
