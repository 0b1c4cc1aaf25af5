import { useEffect, useRef, useState } from 'preact/hooks';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { api, ApiError } from '../api';
import { ConfirmDelete, deleteItem } from '../ui/confirm-delete';
import { Notice, TextField } from '../ui/form';
import type { CredentialView } from '../../auth/credential-view';
import { explainPasskeyError } from './passkeys';

/** GET /api/auth/credentials, one entry: the server's own type. */
export type PasskeyView = CredentialView;

export function passkeyName(passkey: PasskeyView): string {
  return passkey.label ?? 'Unnamed passkey';
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function When(props: { at: string | null; never: string }) {
  return props.at ? <time dateTime={props.at}>{dateFormat.format(new Date(props.at))}</time> : <>{props.never}</>;
}

type Mode = 'view' | 'rename' | 'confirm-delete';

/**
 * One passkey: what it is and when it was used, with rename (inline) and delete (after a confirmation).
 * `deletable` is false for the account's only passkey: the server refuses that (recovery is the way).
 */
export function PasskeyItem(props: { passkey: PasskeyView; deletable: boolean; onRenamed: (p: PasskeyView) => void; onDeleted: (id: string) => void }) {
  const { passkey } = props;
  const name = passkeyName(passkey);
  const [mode, setMode] = useState<Mode>('view');
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const left = useRef<Mode>('view');
  // Back to the list view: focus returns to the button that opened the form, not to the page's top.
  useEffect(() => {
    if (mode !== 'view') left.current = mode;
    else if (left.current === 'rename') renameButton.current?.focus();
    else if (left.current === 'confirm-delete') deleteButton.current?.focus();
  }, [mode]);
  const [label, setLabel] = useState(passkey.label ?? '');
  const [busy, setBusy] = useState(false);
  const [labelError, setLabelError] = useState<string | undefined>(undefined);
  const renameForm = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(renameForm, labelError);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const path = `/api/auth/credentials/${encodeURIComponent(passkey.id)}`;

  const rename = async (event: Event) => {
    event.preventDefault();
    setLabelError(undefined);
    if (!label.trim()) return setLabelError('Give the passkey a name (1 to 64 characters), such as “Work laptop”.');
    setBusy(true);
    try {
      props.onRenamed(await api.patch<PasskeyView>(path, { label: label.trim() }));
      setMode('view');
    } catch (error) {
      if (error instanceof ApiError && error.field === 'label') setLabelError('Use a name of 1 to 64 characters.');
      else if (error instanceof ApiError && error.status === 404) setLabelError('This passkey is gone (deleted on another device?). Reload the page.');
      else setLabelError(explainPasskeyError(error));
    } finally {
      setBusy(false);
    }
  };

  const remove = () =>
    deleteItem(() => api.delete(path), {
      setBusy,
      setProblem,
      deleted: () => props.onDeleted(passkey.id),
      refused: (error) => {
        if (error instanceof ApiError && error.code === 'last_credential') {
          setProblem('This is your only passkey, so it cannot be deleted: you would have no way to sign in. Add another passkey first.');
        } else if (error instanceof ApiError && error.status === 404) {
          setProblem('This passkey is already gone (deleted on another device?). Reload the page to see the list as it is now.');
        } else {
          setProblem(explainPasskeyError(error));
        }
      },
    });

  return (
    <li class="passkey" aria-label={name}>
      <div class="passkey__head">
        <strong class="passkey__name">{name}</strong>
        {passkey.current && <span class="badge">This device</span>}
      </div>
      <dl class="passkey__facts">
        <dt>Kind</dt>
        <dd>{passkey.backup_state ? 'Synced passkey' : 'This device only'}</dd>
        <dt>Added</dt>
        <dd>
          <When at={passkey.created_at} never="—" />
        </dd>
        <dt>Last used</dt>
        <dd>
          <When at={passkey.last_used_at} never="Never" />
        </dd>
      </dl>
      {mode === 'rename' && (
        <form ref={renameForm} class="passkey__rename" onSubmit={rename} noValidate>
          <TextField
            label={`New name for ${name}`}
            value={label}
            maxLength={64}
            autoFocus
            onInput={(event) => setLabel(event.currentTarget.value)}
            error={labelError}
          />
          <div class="actions">
            <button type="submit" disabled={busy}>
              Save name
            </button>
            <button type="button" class="secondary" onClick={() => setMode('view')}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {mode === 'confirm-delete' && (
        <ConfirmDelete class="passkey__confirm" name={name} deleteLabel="Delete passkey" busy={busy} onDelete={remove} onKeep={() => setMode('view')}>
          <strong>Delete {name}?</strong> It will no longer sign in to tradelab
          {passkey.current ? ', and this browser will be signed out (you signed in with it)' : ''}. Browsers signed in with it are
          signed out.
        </ConfirmDelete>
      )}
      {problem && <Notice kind="error">{problem}</Notice>}
      {mode === 'view' && (
        <div class="actions">
          <button ref={renameButton} type="button" class="secondary" onClick={() => setMode('rename')} aria-label={`Rename ${name}`}>
            Rename
          </button>
          {props.deletable && (
            <button ref={deleteButton} type="button" class="danger" onClick={() => setMode('confirm-delete')} aria-label={`Delete ${name}`}>
              Delete
            </button>
          )}
        </div>
      )}
    </li>
  );
}
