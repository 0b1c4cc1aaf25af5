import { Link } from '../router';
import { useFocusOn } from './focus';
import { lastRegisteredEmail } from './sign-up-state';

/** After sign-up: the account exists but its address is not confirmed yet, so it cannot sign in. */
export function CheckInboxPage() {
  const heading = useFocusOn<HTMLHeadingElement>('check-inbox');
  const email = lastRegisteredEmail();
  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Check your inbox
      </h1>
      <p>
        Your passkey is saved. We sent a link to {email ? <strong>{email}</strong> : 'the address you gave'}: open it and press
        “Confirm my address”. The link works for <strong>15 minutes</strong>. Then sign in with your passkey.
      </p>
      <h2>No mail?</h2>
      <ul>
        <li>Give it a few minutes, and look in your spam or junk folder.</li>
        <li>
          If the link has expired or never came, <Link href="/sign-in">sign in with your passkey</Link>: until your address is
          confirmed, signing in sends a fresh link instead (up to three an hour).
        </li>
        <li>
          Typed the wrong address? <Link href="/sign-up">Create the account again</Link> with the right one.
        </li>
      </ul>
    </section>
  );
}
