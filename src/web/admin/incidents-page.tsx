import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { Static } from 'typebox';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import type { BreachAccepted, Incident } from '../../admin/admin.schema';
import { ceremonyWasCancelled, explainPasskeyError } from '../auth/passkeys';
import { Field, Notice } from '../ui/form';
import { AdminPage } from './admin-page';

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
  const [incidents, setIncidents] = useState<IncidentView[] | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | undefined>(undefined);
  const load = async () => {
    try {
      setIncidents(await api.get<IncidentView[]>('/api/admin/breach'));
    } catch (error) {
      setMessage({ kind: 'error', text: describeError(error) });
    }
  };
  useEffect(() => void load(), []);
  const started = (accepted: Accepted, resumed: boolean) => {
    setMessage({
      kind: 'success',
      text: `${resumed ? 'Incident resumed' : 'Incident recorded'}: affected people are being mailed (${accepted.status}). Tell the supervisory authority by ${when(accepted.authority_deadline_at)}.`,
    });
    void load();
  };
  return (
    <>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      <NotifyForm onStarted={(accepted) => started(accepted, false)} onProblem={(text) => setMessage({ kind: 'error', text })} />
      <h2>Incidents</h2>
      {incidents?.length === 0 && <p class="muted">No incident has been recorded.</p>}
      {incidents && incidents.length > 0 && (
        <div class="table-scroll">
          <table class="incidents-table">
            <thead>
              <tr>
                <th scope="col">Detected</th>
                <th scope="col">Summary</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Mailed</th>
                <th scope="col">Authority deadline</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {incidents.map((incident) => (
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
                    {incident.status === 'notifying' && (
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
                        Resume mailing
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const body = { summary: summary.trim(), severity, affected: 'all', ...(detectedAt ? { detected_at: new Date(detectedAt).toISOString() } : {}) };
      props.onStarted(await withPasskey((credential) => api.post<Accepted>('/api/admin/breach/notify', { ...body, credential })));
      setSummary('');
    } catch (error) {
      props.onProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} class="notify-form">
      <h2>Notify affected people</h2>
      <p class="muted">
        Every account with a verified address gets one mail with your summary, what data we hold and what to do. You confirm with your
        passkey. See the breach runbook (docs/breach-runbook.md) for who does what in the 72 hours.
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
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Waiting for your passkey…' : 'Confirm with passkey and notify everyone'}
        </button>
      </div>
    </form>
  );
}
