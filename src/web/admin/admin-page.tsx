import type { ComponentChildren } from 'preact';
import { useSession } from '../auth/session';
import { Link, useLocation } from '../router';

/** The admin area's tabs; the header shows the "Admin" link (to the first) only to admins. */
export const ADMIN_PAGES = [
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/audit', label: 'Audit log' },
  { href: '/admin/incidents', label: 'Incidents' },
] as const;

/**
 * A page of the admin area: its heading and tabs, then the page for an admin. Others see why not (the server
 * refuses them anyway: 401 / 403 on every /api/admin route).
 */
export function AdminPage(props: { title: string; children: () => ComponentChildren }) {
  const { session } = useSession();
  const { path } = useLocation();
  return (
    <section class="page admin">
      <h1>{props.title}</h1>
      {session === undefined && <p class="muted">Loading…</p>}
      {session === null && (
        <p>
          You are signed out. <Link href={`/sign-in?next=${encodeURIComponent(path)}`}>Sign in</Link> with an admin account.
        </p>
      )}
      {session && session.role !== 'admin' && <p>This area is for admins only.</p>}
      {session?.role === 'admin' && (
        <>
          <nav aria-label="Admin" class="admin-tabs actions">
            {ADMIN_PAGES.map((page) => (
              <Link key={page.href} href={page.href} {...(path === page.href ? { 'aria-current': 'page' as const } : {})}>
                {page.label}
              </Link>
            ))}
          </nav>
          {props.children()}
        </>
      )}
    </section>
  );
}
