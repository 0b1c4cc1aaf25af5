import type { Static } from 'typebox';
import { useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { Incident, IncidentStepView } from '../../admin/admin.schema';
import { Field, SelectField, type Choice } from '../ui/form';

type IncidentView = Static<typeof Incident>;
type Step = Static<typeof IncidentStepView>['step'];

const STEP_WORDS: Record<Step, string> = { authority_notified: 'Authority notified', note: 'Note', closed: 'Closed' };

/** The steps a runbook may record next: the authority's notice once, the close once mailing is over, notes always. */
function choicesFor(incident: IncidentView): Choice<Step>[] {
  if (incident.status === 'closed') return [{ value: 'note', label: STEP_WORDS.note }];
  const told = incident.steps.some((s) => s.step === 'authority_notified');
  return [
    { value: 'note', label: STEP_WORDS.note },
    ...(told ? [] : [{ value: 'authority_notified' as const, label: STEP_WORDS.authority_notified }]),
    ...(incident.status === 'notifying' ? [] : [{ value: 'closed' as const, label: 'Close the incident' }]),
  ];
}

/**
 * One incident's runbook after the mailing (`POST /api/admin/breach/{id}/steps`): the steps so far and the form that
 * records the next, each with a note and when it happened. Audited by the server; no passkey, as nobody is mailed.
 */
export function IncidentSteps(props: { incident: IncidentView; when: (iso: string) => string; onRecorded: (text: string) => void }) {
  const { incident } = props;
  const [step, setStep] = useState<Step>('note');
  const [note, setNote] = useState('');
  const [at, setAt] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const choices = choicesFor(incident);
  const chosen = choices.some((c) => c.value === step) ? step : 'note';
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post(`/api/admin/breach/${incident.id}/steps`, { step: chosen, note: note.trim(), ...(at ? { at: new Date(at).toISOString() } : {}) });
      setNote('');
      setAt('');
      setStep('note');
      props.onRecorded(`${STEP_WORDS[chosen]} recorded for “${incident.summary.slice(0, 60)}”.`);
    } catch (problem) {
      setError(describeError(problem));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="incident-steps">
      <summary>Steps ({incident.steps.length})</summary>
      {incident.steps.length > 0 && (
        <ol>
          {incident.steps.map((s, i) => (
            <li key={i}>
              <strong>{STEP_WORDS[s.step]}</strong> {props.when(s.at)}: {s.note}
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} aria-label={`Record a step of “${incident.summary.slice(0, 60)}”`}>
        <SelectField label="Step" name="step" value={chosen} choices={choices} onChange={setStep} />
        <Field label="Note" error={error}>
          {({ id, describedBy, invalid }) => (
            <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} required maxLength={4000} rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="When (your local time; empty for now)">
          {({ id }) => <input id={id} type="datetime-local" value={at} onInput={(e) => setAt(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary" disabled={busy}>
          Record step
        </button>
      </form>
    </details>
  );
}
