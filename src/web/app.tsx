import type { FunctionComponent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api';
import { Link, navigate, useLocation } from './router';
import { SessionProvider, useSession, type AuthMode } from './auth/session';
import { SignUpPage } from './auth/sign-up';
import { CheckInboxPage } from './auth/check-inbox';
import { VerifyEmailPage } from './auth/verify-email';
import { SignInPage } from './auth/sign-in';
import { DevicesPage } from './auth/devices';
import { RecoverPage } from './auth/recover';
import { NoAccountsPage, SINGLE_OPERATOR_NOTE } from './auth/no-accounts-page';
import { lazyPage } from './lazy-page';

const LabPage = lazyPage(() => import('./lab/lab-page').then((module) => module.LabPage));
const ComparePage = lazyPage(() => import('./lab/compare-page').then((module) => module.ComparePage));
const OptimizePage = lazyPage(() => import('./lab/optimize-page').then((module) => module.OptimizePage));
const LibraryPage = lazyPage(() => import('./library/library-page').then((module) => module.LibraryPage));
const NewStrategyPage = lazyPage(() => import('./library/strategy-form-page').then((module) => module.NewStrategyPage));
const EditStrategyPage = lazyPage(() => import('./library/strategy-form-page').then((module) => module.EditStrategyPage));
const LibraryBacktestPage = lazyPage(() => import('./library/backtest-page').then((module) => module.LibraryBacktestPage));
const AdminUsersPage = lazyPage(() => import('./admin/users-page').then((module) => module.AdminUsersPage));
const AdminAuditPage = lazyPage(() => import('./admin/audit-page').then((module) => module.AdminAuditPage));
const AdminIncidentsPage = lazyPage(() => import('./admin/incidents-page').then((module) => module.AdminIncidentsPage));
const CompliancePage = lazyPage(() => import('./library/compliance-page').then((module) => module.CompliancePage));
const TradePage = lazyPage(() => import('./trade/trade-page').then((module) => module.TradePage));
const PrivacyPage = lazyPage(() => import('./privacy/privacy-page').then((module) => module.PrivacyPage));

interface Route {
  readonly title: string;
  readonly page: FunctionComponent;
  /** A page of accounts, data rights or admin: under AUTH_V1=off its API answers 404, so the page is not linked. */
  readonly accounts?: true;
}

/** Every page of the app, by path. The server answers each of these paths with index.html. */
export const ROUTES: Readonly<Record<string, Route>> = {
  '/': { title: 'Backtest lab', page: LabPage },
  '/compare': { title: 'Compare strategies', page: ComparePage },
  '/optimize': { title: 'Optimize a strategy', page: OptimizePage },
  '/sign-up': { title: 'Create an account', page: SignUpPage, accounts: true },
  '/check-inbox': { title: 'Check your inbox', page: CheckInboxPage, accounts: true },
  '/verify-email': { title: 'Confirm your email address', page: VerifyEmailPage, accounts: true },
  '/sign-in': { title: 'Sign in', page: SignInPage, accounts: true },
  '/devices': { title: 'Your passkeys', page: DevicesPage, accounts: true },
  '/recover': { title: 'Recover your account', page: RecoverPage, accounts: true },
  '/library': { title: 'Strategy library', page: LibraryPage },
  '/library/new': { title: 'New strategy', page: NewStrategyPage },
  '/library/edit': { title: 'Edit strategy', page: EditStrategyPage },
  '/library/backtest': { title: 'Backtest a strategy', page: LibraryBacktestPage },
  '/compliance': { title: 'Check a trade', page: CompliancePage },
  '/trade': { title: 'Trade', page: TradePage },
  '/admin/users': { title: 'Admin: users', page: AdminUsersPage, accounts: true },
  '/admin/audit': { title: 'Admin: audit log', page: AdminAuditPage, accounts: true },
  '/admin/incidents': { title: 'Admin: breach incidents', page: AdminIncidentsPage, accounts: true },
  '/privacy': { title: 'Privacy and data', page: PrivacyPage, accounts: true },
};

export function App() {
  return (
    <SessionProvider>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <Main />
    </SessionProvider>
  );
}

function Header() {
  const { path } = useLocation();
  const { session, authMode, signOut } = useSession();
  // AUTH_V1=off: no accounts; the library and trade pages act for the local operator.
  const singleOperator = authMode === 'off';
  const [signOutProblem, setSignOutProblem] = useState<string | undefined>(undefined);
  const current = (href: string) => (path === href ? { 'aria-current': 'page' as const } : {});
  // The library's pages (list, form, backtest) and the trade check all sit under the one "Library" link.
  const inLibrary = path === '/library' || path.startsWith('/library/') || path === '/compliance' ? { 'aria-current': 'page' as const } : {};
  return (
    <header class="site-header">
      <Link href="/" class="brand">
        tradelab
      </Link>
      <nav aria-label="Main">
        <Link href="/" {...current('/')}>
          Lab
        </Link>
        <Link href="/compare" {...current('/compare')}>
          Compare
        </Link>
        <Link href="/optimize" {...current('/optimize')}>
          Optimize
        </Link>
        {(session || singleOperator) && (
          <Link href="/library" {...inLibrary}>
            Library
          </Link>
        )}
        {(session || singleOperator) && (
          <Link href="/trade" {...current('/trade')}>
            Trade
          </Link>
        )}
        {session && (
          <Link href="/devices" {...current('/devices')}>
            Passkeys
          </Link>
        )}
        {session && (
          <Link href="/privacy" {...current('/privacy')}>
            Privacy
          </Link>
        )}
        {session?.role === 'admin' && (
          <Link href="/admin/users" {...(path.startsWith('/admin/') ? { 'aria-current': 'page' as const } : {})}>
            Admin
          </Link>
        )}
        {session === null && !singleOperator && (
          <>
            <Link href="/sign-in" {...current('/sign-in')}>
              Sign in
            </Link>
            <Link href="/sign-up" class="nav-primary" {...current('/sign-up')}>
              Create account
            </Link>
          </>
        )}
        {session && (
          <button
            type="button"
            class="link-button"
            onClick={async () => {
              setSignOutProblem(undefined);
              try {
                await signOut();
                navigate('/sign-in');
              } catch (error) {
                // The session may still be open (offline, server down): say so rather than pretend.
                setSignOutProblem(`You are still signed in: ${describeError(error)}`);
              }
            }}
          >
            Sign out
          </button>
        )}
      </nav>
      {singleOperator && <p class="site-header__note">{SINGLE_OPERATOR_NOTE}</p>}
      {signOutProblem && (
        <p class="site-header__problem" role="alert">
          {signOutProblem}
        </p>
      )}
    </header>
  );
}

function Main() {
  const { path } = useLocation();
  const { authMode } = useSession();
  const route = ROUTES[path];
  const shown = shownPage(route, authMode);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    document.title = `${shown.title} · tradelab`;
  }, [shown.title]);
  useEffect(() => {
    // After an in-app navigation, focus starts at the new page (as after a page load), unless the page
    // put it somewhere itself (the account pages focus their heading).
    if (firstRender.current) firstRender.current = false;
    else if (!main.current?.contains(document.activeElement)) main.current?.focus();
  }, [route]);
  return (
    <main id="main" ref={main} tabIndex={-1}>
      <shown.page />
    </main>
  );
}

/**
 * What the address shows. An account page waits until the server has said its AUTH_V1 (under `off` the page would
 * call routes that answer 404), and under `off` says why it does not apply instead.
 */
function shownPage(route: Route | undefined, authMode: AuthMode | null | undefined): Route {
  if (!route) return { title: 'Page not found', page: NotFound };
  if (route.accounts && authMode === 'off') return { title: 'Not available in single-operator mode', page: NoAccountsPage };
  if (route.accounts && authMode === undefined) return { title: route.title, page: Checking };
  return route;
}

function Checking() {
  return (
    <section class="page narrow">
      <p class="muted">Loading…</p>
    </section>
  );
}

function NotFound() {
  return (
    <section class="page narrow">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link href="/">Go to the backtest lab</Link>.
      </p>
    </section>
  );
}
