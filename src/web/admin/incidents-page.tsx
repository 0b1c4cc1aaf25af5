import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { Static } from 'typebox';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import type { BreachAccepted, Incident } from '../../admin/admin.schema';
import { ceremonyWasCancelled, explainPasskeyError } from '../auth/passkeys';
import { Field, Notice } from '../ui/form';
import { PAGE_SIZE, Pager, rangeText } from '../ui/pager';
import { AdminPage } from './admin-page';
import { parseAffectedIds, unknownUsersText } from './affected-ids';
import { IncidentSteps } from './incident-steps';

type IncidentView = Static<typeof Incident>;
type Accepted = Static<typeof BreachAccepted>;

/** `/admin/incidents`: breach incidents with their mail progress and 72-hour deadline, and the form that starts one. */
export function AdminIncidentsPage() {
  return <AdminPage title="Breach incidents">{() => <Incidents />}</AdminPage>;
}

/** A fresh step-up, made in this same request flow: options, the passkey prompt, then the call that needs it. */
async function withPasskey<T>(call: (credential: unknown) => Promise<T>): Promise<T> {
  const options = await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/step-up/options');
  const credential = await startAuthentication({ optionsJSON: options });
  return call(credential);
}

function problemOf(error: unknown): string {
  return ceremonyWasCancelled(error) ? 'The passkey prompt was closed: nothing was sent. You can try again.' : error instanceof ApiError ? describeError(error) : explainPasskeyError(error);
}

const when = (iso: string) => iso.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');

function Incidents() {
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<{ incidents: IncidentView[]; total: number; offset: number } | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | undefined>(undefined);
  // Only the latest load may show its answer: a slow one for a page already left is dropped.
  const loads = useRef(0);
  const load = async (from = offset) => {
    const call = (loads.current += 1);
    try {
      const { data, headers } = await api.getWithHeaders<IncidentView[]>(`/api/admin/breach?limit=${PAGE_SIZE}&offset=${from}`);
      if (call !== loads.current) return;
      if (data.length === 0 && from > 0) return setOffset(Math.max(0, from - PAGE_SIZE));
      setShown({ incidents: data, total: Number(headers.get('x-total-count') ?? data.length), offset: from });
    } catch (error) {
      if (call === loads.current) setMessage({ kind: 'error', text: describeError(error) });
    }
  };
  useEffect(() => void load(offset), [offset]);
  const started = (accepted: Accepted, resumed: boolean) => {
    const what = accepted.merged ? 'The same incident is already open, so it was resumed, not recorded twice' : resumed ? 'Incident resumed' : 'Incident recorded';
    const mailing = accepted.status === 'open' ? 'nobody is mailed (recorded only)' : `affected people are being mailed (${accepted.status})`;
    setMessage({ kind: 'success', text: `${what}: ${mailing}. Tell the supervisory authority by ${when(accepted.authority_deadline_at)}.` });
    // A new incident is the newest: show the first page, where it is.
    if (!resumed && offset !== 0) setOffset(0);
    else void load();
  };
  return (
    <>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      <NotifyForm onStarted={(accepted) => started(accepted, false)} onProblem={(text) => setMessage({ kind: 'error', text })} />
      <h2>Incidents</h2>
      {shown?.total === 0 && <p class="muted">No incident has been recorded.</p>}
      {shown && shown.incidents.length > 0 && (
        <div class="table-scroll">
          <table class="incidents-table">
            <caption>
              {rangeText({ offset: shown.offset, shown: shown.incidents.length, total: shown.total })} {shown.total === 1 ? 'incident' : 'incidents'}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Detected</th>
                <th scope="col">Summary</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Mailed</th>
                <th scope="col">Authority deadline</th>
                <th scope="col">Runbook</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.incidents.map((incident) => (
                <tr key={incident.id}>
                  <td>{when(incident.detected_at)}</td>
                  <td>{incident.summary}</td>
                  <td>{incident.severity}</td>
                  <td>{incident.status}</td>
                  <td>
                    {incident.mailed} of {incident.to_mail}
                  </td>
                  <td>{when(incident.authority_deadline_at)}</td>
                  <td>
                    <IncidentSteps
                      incident={incident}
                      when={when}
                      onRecorded={(text) => {
                        setMessage({ kind: 'success', text });
                        void load();
                      }}
                    />
                  </td>
                  <td>
                    {(incident.status === 'notifying' || incident.status === 'open') && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={async () => {
                          try {
                            started(await withPasskey((credential) => api.post<Accepted>('/api/admin/breach/notify', { incident_id: incident.id, credential })), true);
                          } catch (error) {
                            setMessage({ kind: 'error', text: problemOf(error) });
                          }
                        }}
                      >
                        {incident.status === 'open' ? 'Mail affected people' : 'Resume mailing'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && <Pager label="Pages of incidents" offset={shown.offset} shown={shown.incidents.length} total={shown.total} go={setOffset} />}
      <p>
        <button type="button" class="secondary" onClick={() => void load()}>
          Refresh progress
        </button>
      </p>
    </>
  );
}

function NotifyForm(props: { onStarted: (accepted: Accepted) => void; onProblem: (text: string) => void }) {
  const [summary, setSummary] = useState('');
  const [severity, setSeverity] = useState<'low' | 'medium' | 'high'>('medium');
  const [detectedAt, setDetectedAt] = useState('');
  const [who, setWho] = useState<'all' | 'these'>('all');
  const [recordOnly, setRecordOnly] = useState(false);
  const quiet = recordOnly && severity === 'low';
  const [idsText, setIdsText] = useState('');
  const [idsError, setIdsError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const idsRef = useRef<HTMLTextAreaElement>(null);
  const showIdsError = (text: string) => {
    setIdsError(text);
    idsRef.current?.focus();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setIdsError(undefined);
    let affected: 'all' | string[] = 'all';
    if (who === 'these') {
      // Checked here, before the passkey prompt: a typo should not cost a confirmation.
      const parsed = parseAffectedIds(idsText);
      if ('error' in parsed) return showIdsError(parsed.error);
      affected = parsed.ids;
    }
    setBusy(true);
    try {
      const body = { summary: summary.trim(), severity, affected, ...(detectedAt ? { detected_at: new Date(detectedAt).toISOString() } : {}), ...(quiet ? { notify_users: false } : {}) };
      props.onStarted(await withPasskey((credential) => api.post<Accepted>('/api/admin/breach/notify', { ...body, credential })));
      setSummary('');
      setIdsText('');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unknown_users') showIdsError(unknownUsersText(error.message, error.details));
      else props.onProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} class="notify-form">
      <h2>Notify affected people</h2>
      <p class="muted">
        Each affected account with a verified address (everyone, or the accounts you name) gets one mail with your summary, what data
        we hold and what to do. You confirm with your passkey. See the breach runbook (docs/breach-runbook.md) for who does what in the 72 hours.
      </p>
      <Field label="What happened, and which data (goes into the mail)">
        {({ id, describedBy }) => (
          <textarea id={id} aria-describedby={describedBy} required minLength={10} maxLength={4000} rows={4} value={summary} onInput={(e) => setSummary(e.currentTarget.value)} />
        )}
      </Field>
      <Field label="Severity">
        {({ id }) => (
          <select id={id} value={severity} onChange={(e) => setSeverity(e.currentTarget.value as 'low' | 'medium' | 'high')}>
            <option value="low">low</option>
            <option value="medium">medium</option>
            <option value="high">high</option>
          </select>
        )}
      </Field>
      <Field label="Detected at (your local time; empty for now)">
        {({ id }) => <input id={id} type="datetime-local" value={detectedAt} onInput={(e) => setDetectedAt(e.currentTarget.value)} />}
      </Field>
      <fieldset class="ticket-kind">
        <legend>Who is affected</legend>
        <label class="check">
          <input type="radio" name="affected" value="all" checked={who === 'all'} onChange={() => {
              setWho('all');
              setIdsError(undefined);
            }} /> Everyone
        </label>
        <label class="check">
          <input type="radio" name="affected" value="these" checked={who === 'these'} onChange={() => setWho('these')} /> These accounts
        </label>
      </fieldset>
      {who === 'these' && (
        <Field label="Account ids" hint="One per line or comma-separated, as the Users page shows them (the Id column)." error={idsError}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              ref={idsRef}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              rows={4}
              spellcheck={false}
              autoComplete="off"
              value={idsText}
              onInput={(e) => {
                setIdsText(e.currentTarget.value);
                setIdsError(undefined);
              }}
            />
          )}
        </Field>
      )}
      {severity === 'low' && (
        <label class="check">
          <input type="checkbox" checked={recordOnly} onChange={(e) => setRecordOnly(e.currentTarget.checked)} /> Record only, mail nobody (low
          risk to people; you can mail them later)
        </label>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy
            ? 'Waiting for your passkey…'
            : quiet
              ? 'Confirm with passkey and record without mailing'
              : who === 'all'
                ? 'Confirm with passkey and notify everyone'
                : 'Confirm with passkey and notify these accounts'}
        </button>
      </div>
    </form>
  );
}
