import { Link } from '../router';

/** The note the header shows under AUTH_V1=off. */
export const SINGLE_OPERATOR_NOTE = 'Single-operator mode (AUTH_V1=off): no accounts; you act as the local operator.';

/**
 * An account, data-rights or admin page opened by its address under AUTH_V1=off, where their API answers 404: it says
 * why the page does not apply (docs/web-app.md, "Single-operator mode") and where to go instead.
 */
export function NoAccountsPage() {
  return (
    <section class="page narrow">
      <h1>Not available in single-operator mode</h1>
      <p>
        There are no accounts on this server: it runs as the single-operator tool (<code>AUTH_V1=off</code>), and you act as the local operator.
        Signing in, passkeys, account recovery and the admin area do not apply.
      </p>
      <p>
        Nor do the data-rights requests (export, correction, erasure): they are what an account holder asks of whoever runs a shared service. Here
        you run it yourself, and what it holds — your strategies, orders and portfolio — is in this server’s own database.
      </p>
      <p>
        Go to your <Link href="/library">strategy library</Link> or the <Link href="/">backtest lab</Link>.
      </p>
    </section>
  );
}
