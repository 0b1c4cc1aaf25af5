import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Link, navigate } from '../router';
import { Notice } from '../ui/form';
import { useFocusOn } from './focus';
import { useFreshOptions } from './fresh-options';
import { PasskeyItem, passkeyName, type PasskeyView } from './passkey-item';
import { explainPasskeyError, signalAcceptedCredentials, signalUnknownCredential, signalUserDetails } from './passkeys';
import { useSession, type SessionView } from './session';

const fetchAddOptions = () => api.post<PublicKeyCredentialCreationOptionsJSON>('/api/auth/credentials/add/options');

/** The signed-in person's passkeys: list, add this device, rename, delete. */
export function DevicesPage() {
  const { session } = useSession();
  const heading = useFocusOn<HTMLHeadingElement>(session === null ? 'signed-out' : 'devices');
  return (
    <section class="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Your passkeys
      </h1>
      {session === undefined && <p class="muted">Loading…</p>}
      {session === null && (
        <p>
          You are signed out. <Link href="/sign-in?next=/devices">Sign in</Link> to see and manage your passkeys.
        </p>
      )}
      {session && <PasskeyList session={session} />}
    </section>
  );
}

type Message = { kind: 'success' | 'error'; text: string };

function PasskeyList(props: { session: SessionView }) {
  const { session } = props;
  const { reload } = useSession();
  const [passkeys, setPasskeys] = useState<PasskeyView[] | undefined>(undefined);
  const [message, setMessage] = useState<Message | undefined>(undefined);
  const [adding, setAdding] = useState(false);
  // Refilled after the attempt ends, not when the options are taken: options fetched during the ceremony
  // would exclude the passkeys of before it, and a second press would add this device twice.
  const addOptions = useFreshOptions(fetchAddOptions, { refillAfterUse: false });
  const messageRef = useFocusOn<HTMLDivElement>(message);

  const load = useCallback(async () => {
    try {
      const list = await api.get<PasskeyView[]>('/api/auth/credentials');
      setPasskeys(list);
      // Each time, not only after a delete here: a passkey may have gone on another device or by a recovery.
      signalAcceptedCredentials(session.user_handle, list.map((passkey) => passkey.id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return void reload();
      setMessage({ kind: 'error', text: `Your passkeys could not be loaded. ${explainPasskeyError(error)}` });
    }
  }, [reload, session.user_handle]);

  useEffect(() => {
    void load();
    signalUserDetails(session.user_handle, session.email, session.display_name);
  }, [load, session.user_handle, session.email, session.display_name]);

  const addThisDevice = async () => {
    setMessage(undefined);
    setAdding(true);
    try {
      const prefetched = addOptions.take();
      // No await before the WebAuthn call when the options are at hand: Safari keeps the click's gesture.
      const credential = await startRegistration({ optionsJSON: prefetched ?? (await addOptions.fetchNow()) });
      const added = await api.post<PasskeyView>('/api/auth/credentials/add/verify', credential);
      await load();
      setMessage({ kind: 'success', text: `Passkey added: ${passkeyName(added)}. You can rename it so you know which device it is.` });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return void reload();
      setMessage({ kind: 'error', text: explainPasskeyError(error) });
    } finally {
      setAdding(false);
      addOptions.renew();
    }
  };

  const deleted = async (id: string) => {
    const gone = passkeys?.find((passkey) => passkey.id === id);
    if (gone?.current) {
      // Its sessions went with it, this one included, so the list cannot be read again. This page's list
      // may be stale (a passkey added elsewhere since): naming the deleted passkey alone is the safe signal.
      await signalUnknownCredential(id);
      await reload();
      navigate('/sign-in?next=/devices');
      return;
    }
    setPasskeys((list) => list?.filter((passkey) => passkey.id !== id));
    setMessage({ kind: 'success', text: `${gone ? passkeyName(gone) : 'The passkey'} was deleted. It can no longer sign in.` });
    // The server's list, not this page's (which may predate a passkey added on another device): the
    // browser's passkey manager drops every passkey of the account that the signal leaves out.
    await load();
  };

  const renamed = (updated: PasskeyView) => {
    setMessage(undefined);
    setPasskeys((list) => list?.map((passkey) => (passkey.id === updated.id ? updated : passkey)));
  };
  const only = passkeys?.length === 1;

  return (
    <>
      <p>
        Signed in as <strong>{session.email}</strong>. Each passkey below can sign in to your account.
      </p>
      {message && (
        <div ref={messageRef} tabIndex={-1}>
          <Notice kind={message.kind}>{message.text}</Notice>
        </div>
      )}
      {passkeys === undefined && !message && <p class="muted">Loading your passkeys…</p>}
      {passkeys && (
        <ul class="passkeys" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} deletable={!only} onRenamed={renamed} onDeleted={deleted} />
          ))}
        </ul>
      )}
      {only && (
        <Notice kind="info">
          This is your only passkey, so it cannot be deleted: without it you could not sign in. To replace it, add another passkey first
          (on this device or another), then delete this one. If you ever lose every device with a passkey,{' '}
          <Link href="/recover">recover your account by email</Link>.
        </Notice>
      )}
      <h2>Add this device</h2>
      <p>
        Signing in on another phone or computer? Open this page there (after signing in with a passkey you already have, for example
        from your phone) and add a passkey for that device.
      </p>
      <div class="actions">
        <button type="button" onClick={addThisDevice} disabled={adding}>
          {adding ? 'Waiting for your passkey…' : 'Add a passkey on this device'}
        </button>
      </div>
    </>
  );
}
