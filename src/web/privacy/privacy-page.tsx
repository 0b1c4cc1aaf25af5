import { useState } from 'preact/hooks';
import { Link } from '../router';
import { useFocusOn } from '../auth/focus';
import { useSession } from '../auth/session';
import { Notice } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { EraseSection } from './erase-section';
import { ExportSection } from './export-section';
import { ProfileSection } from './profile-section';
import { RetentionSection } from './retention-section';
import type { ErasureView } from './types';

/**
 * "Privacy and data": download my data, my name and address, what is kept and for how long, and deleting the
 * account. The outcome of an erasure is held here, so it stays on screen once the session is gone.
 */
export function PrivacyPage() {
  const { session } = useSession();
  const [erased, setErased] = useState<ErasureView | undefined>(undefined);
  const heading = useFocusOn<HTMLHeadingElement>(erased ? 'erased' : session === null ? 'signed-out' : 'privacy');

  if (erased) {
    return (
      <section class="page privacy">
        <h1 ref={heading} tabIndex={-1}>
          Your account is deleted
        </h1>
        <Notice kind="success">
          Your account was deleted on {formatDateTime(erased.deleted_at)} and you are signed out on every device. No one can sign in to it
          or recover it any more.
        </Notice>
        <p>
          Everything we hold about you is purged on {formatDateTime(erased.purge_after)}; until then your email address stays taken. The
          audit log keeps its entries about your account for 2 years, with your identity replaced by a keyed hash. A notice with these
          dates is on its way to your email address.
        </p>
        <p>
          <Link href="/">Go to the backtest lab</Link>
        </p>
      </section>
    );
  }

  return (
    <section class="page privacy">
      <h1 ref={heading} tabIndex={-1}>
        Privacy and data
      </h1>
      {session === undefined && <p class="muted">Loading…</p>}
      {session === null && (
        <p>
          You are signed out. <Link href="/sign-in?next=/privacy">Sign in</Link> to download your data, change your name or address, or
          delete your account.
        </p>
      )}
      {session && (
        <>
          <ExportSection session={session} />
          <ProfileSection session={session} />
          <RetentionSection />
          <EraseSection onErased={setErased} />
        </>
      )}
    </section>
  );
}
