import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import { useSession, type SessionView } from '../auth/session';
import { Notice } from '../ui/form';
import { formatDateTime } from '../ui/format';
import type { ExportQueued, ExportView } from './types';

/** While an export is queued or being built, the list is read again this often. */
const POLL_MS = 1_500;

const inProgress = (item: ExportView) => item.status === 'queued';

type Message = { kind: 'info' | 'error' | 'success'; text: string };

/** "Download my data": start an export, follow it while it is built, and the list of exports with their links. */
export function ExportSection(props: { session: SessionView }) {
  const { reload } = useSession();
  const [exports, setExports] = useState<readonly ExportView[] | undefined>(undefined);
  const [message, setMessage] = useState<Message | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [started, setStarted] = useState<string | undefined>(undefined);
  const live = useRef(true);

  const load = useCallback(async () => {
    try {
      const list = await api.get<ExportView[]>('/api/gdpr/exports');
      if (live.current) setExports(list);
    } catch (error) {
      if (!live.current) return;
      if (error instanceof ApiError && error.status === 401) return void reload();
      setMessage({ kind: 'error', text: `Your exports could not be loaded. ${describeError(error)}` });
    }
  }, [reload]);

  useEffect(() => {
    live.current = true;
    void load();
    return () => {
      live.current = false;
    };
  }, [load]);

  // Follow an export while it is queued or built; stop once none is.
  const building = exports?.some(inProgress) ?? false;
  useEffect(() => {
    if (!building) return undefined;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [building, load]);

  const start = async () => {
    setMessage(undefined);
    setStarting(true);
    try {
      const queued = await api.post<ExportQueued>('/api/gdpr/export');
      setStarted(queued.id);
      await load();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return void reload();
      if (error instanceof ApiError && error.status === 409) {
        setMessage({ kind: 'info', text: 'An export is already being prepared. It appears below when it is ready, and we mail you then.' });
        await load();
      } else {
        setMessage({ kind: 'error', text: `The export could not be started. ${describeError(error)}` });
      }
    } finally {
      setStarting(false);
    }
  };
  // What became of the export started here, said once in a status line.
  const startedItem = exports?.find((item) => item.id === started);
  const progress: Message | undefined =
    started === undefined
      ? undefined
      : startedItem?.status === 'ready'
        ? { kind: 'success', text: 'Your data is ready: download the zip below. We have mailed you too.' }
        : startedItem?.status === 'failed'
          ? { kind: 'error', text: 'Preparing your data failed. Please try again.' }
          : { kind: 'info', text: 'Preparing your data… You can wait here or leave this page: we mail you when it is ready.' };

  return (
    <section class="privacy__part" aria-labelledby="export-title">
      <h2 id="export-title">Download my data</h2>
      <p>
        One zip file with everything we hold about you: your profile, passkeys (without their keys), sessions, strategies, orders,
        positions and the audit entries about you. It holds a <code>README.txt</code> saying what each file is, all of it in one JSON
        file, and a CSV file per table for a spreadsheet. Preparing it takes a moment; we mail you at {props.session.email} when it is
        ready, and the download works for 7 days.
      </p>
      <div class="actions">
        <button type="button" onClick={start} disabled={starting || building}>
          {starting ? 'Starting…' : building ? 'Preparing your data…' : 'Prepare my data'}
        </button>
      </div>
      {progress && !message && <Notice kind={progress.kind}>{progress.text}</Notice>}
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {exports && exports.length > 0 && (
        <ul class="exports" aria-label="Your exports" aria-busy={building}>
          {exports.map((item) => (
            <ExportItem key={item.id} item={item} />
          ))}
        </ul>
      )}
      {exports?.length === 0 && <p class="muted">You have no exports yet.</p>}
    </section>
  );
}

function ExportItem(props: { item: ExportView }) {
  const { item } = props;
  const asked = `Requested ${formatDateTime(item.requested_at)}`;
  // A ready export whose 7 days have passed answers 410: say so rather than offer a dead link.
  const expired = item.status === 'expired' || (item.status === 'ready' && item.expires_at != null && Date.parse(item.expires_at) <= Date.now());
  return (
    <li class="export">
      <span class="export__when">{asked}</span>
      <span class="export__status">
        {item.status === 'queued' && 'Waiting to be prepared…'}
        {item.status === 'failed' && 'This export failed. Prepare a new one.'}
        {expired && `Expired${item.expires_at ? ` on ${formatDateTime(item.expires_at)}` : ''}. Prepare a new one.`}
        {item.status === 'ready' && !expired && (
          <>
            <a href={`/api/gdpr/exports/${encodeURIComponent(item.id)}/download`} download class="button">
              Download zip<span class="visually-hidden"> ({asked})</span>
            </a>{' '}
            {item.expires_at && <span class="muted">Available until {formatDateTime(item.expires_at)}.</span>}
          </>
        )}
      </span>
    </li>
  );
}
