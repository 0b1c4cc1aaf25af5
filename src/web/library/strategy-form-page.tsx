import { useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../auth/session';
import { NO_ERRORS, type FormErrors } from '../ui/form-errors';
import { Link, navigate, useLocation } from '../router';
import { LoadStrategy } from './load-strategy';
import { Notice } from '../ui/form';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { isSignedOut, placeApiError } from './errors';
import { setFlash } from './flash';
import { SignedInPage } from './signed-in-page';
import { IdentityFields, RuleFields } from './strategy-fields';
import { OptionsSpecFields } from './options-spec-fields';
import type { OptionsSpecInputs } from './options-spec-inputs';
import { isOptionsType } from './strategy-labels';
import { checkStrategyInputs, createBody, EMPTY_INPUTS, inputsOf, patchBody, STRATEGY_CONTROLS, type StrategyInputs } from './strategy-inputs';
import type { StrategyView } from './types';

/** The errors a change of `key` makes obsolete: its own, and a spec box's change the whole spec's. */
const obsoleteBy = (key: string) => (key.startsWith('options_spec') || key === 'options_strike_by' ? [key, 'options_spec'] : [key]);

/** `/library/new`: an empty strategy form. */
export function NewStrategyPage() {
  return (
    <SignedInPage title="New strategy" signedOut="to add strategies to your library.">
      {() => <StrategyForm saved={undefined} />}
    </SignedInPage>
  );
}

/** `/library/edit?id=N`: the strategy's form, filled in from the server. */
export function EditStrategyPage() {
  const id = useLocation().query.get('id') ?? '';
  return (
    <SignedInPage title="Edit strategy" signedOut="to edit your strategies.">
      {() => <LoadStrategy key={id} id={id} render={(strategy) => <StrategyForm key={strategy.id} saved={strategy} />} />}
    </SignedInPage>
  );
}

/** Create (no `saved`) or edit one strategy; after saving, back to the list, which confirms it. */
function StrategyForm(props: { saved: StrategyView | undefined }) {
  const { saved } = props;
  const { reload } = useSession();
  const [inputs, setInputs] = useState<StrategyInputs>(saved ? inputsOf(saved) : EMPTY_INPUTS);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, errors);

  const set = <K extends keyof StrategyInputs>(key: K, next: StrategyInputs[K]) => {
    setInputs((current) => ({ ...current, [key]: next }));
    // An error is about what was there: it goes when the field changes (a rule's live check takes over).
    const obsolete = obsoleteBy(key);
    if (obsolete.some((field) => errors.fields[field])) setErrors((current) => ({ ...current, fields: Object.fromEntries(Object.entries(current.fields).filter(([field]) => !obsolete.includes(field))) }));
  };

  const setSpec = <K extends keyof OptionsSpecInputs>(key: K, next: OptionsSpecInputs[K]) => set(key, next as StrategyInputs[K]);

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    const found = checkStrategyInputs(inputs);
    if (Object.keys(found).length > 0) return setErrors({ fields: found });
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const changes = saved ? patchBody(inputs, saved) : undefined;
      if (saved && changes && Object.keys(changes).length === 0) {
        setFlash(`Nothing to save: “${saved.name}” is unchanged.`);
      } else {
        const stored = saved
          ? await api.patch<StrategyView>(`/api/strategies/${saved.id}`, changes)
          : await api.post<StrategyView>('/api/strategies', createBody(inputs));
        setFlash(saved ? `Saved the changes to “${stored.name}”.` : `Created “${stored.name}”.`);
      }
      navigate('/library');
    } catch (error) {
      setBusy(false);
      if (isSignedOut(error)) return void reload();
      setErrors(placeApiError(error, STRATEGY_CONTROLS, { invalid_rule: 'entry_rule' }));
    }
  }

  return (
    <form ref={form} class="strategy-form" noValidate onSubmit={submit} aria-describedby={errors.form ? 'strategy-form-error' : undefined}>
      {saved && (
        <p class="muted">
          Editing <strong>{saved.name}</strong>. <Link href={`/library/backtest?id=${saved.id}`}>Backtest it</Link> ·{' '}
          <Link href={`/compliance?id=${saved.id}`}>Check a trade</Link>
        </p>
      )}
      <IdentityFields value={inputs} errors={errors.fields} set={set} />
      <RuleFields value={inputs} errors={errors.fields} set={set} />
      {isOptionsType(inputs.strategy_type) && <OptionsSpecFields type={inputs.strategy_type} value={inputs} errors={errors.fields} set={setSpec} />}
      {errors.form && (
        <div id="strategy-form-error">
          <Notice kind="error">{errors.form}</Notice>
        </div>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : saved ? 'Save changes' : 'Create strategy'}
        </button>
        <Link href="/library">Cancel</Link>
      </div>
    </form>
  );
}
