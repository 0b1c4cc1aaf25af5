import { TextField } from '../ui/form';
import type { ValidationInputs } from './sweep-inputs';

const KINDS: readonly { value: ValidationInputs['kind']; label: string }[] = [
  { value: 'none', label: 'None: sweep the whole period' },
  { value: 'fraction', label: 'Hold out the last part of the bars' },
  { value: 'split_date', label: 'Hold out from a date on' },
  { value: 'walk_forward', label: 'Walk-forward: optimise on rolling windows, test each on the next' },
];

/** The optional out-of-sample check: none, a held-out last part (by share or from a date), or walk-forward. */
export function ValidationFields(props: { value: ValidationInputs; errors: Readonly<Record<string, string>>; onChange: (next: ValidationInputs) => void }) {
  const { value, errors } = props;
  const set = (key: keyof ValidationInputs, next: string) => props.onChange({ ...value, [key]: next });
  const groupError = errors.validation;
  return (
    <fieldset class="sweep-validation" aria-describedby={groupError ? 'validation-error' : undefined}>
      <legend>Out-of-sample check</legend>
      {groupError && (
        <p class="field__error" id="validation-error" role="alert">
          {groupError}
        </p>
      )}
      <div class="sweep-validation__kinds">
        {KINDS.map((kind) => (
          <label key={kind.value} class="check">
            <input
              type="radio"
              name="validation"
              value={kind.value}
              checked={value.kind === kind.value}
              aria-invalid={Boolean(groupError) && value.kind === kind.value}
              onChange={() => set('kind', kind.value)}
            />
            {kind.label}
          </label>
        ))}
      </div>
      <div class="sweep-validation__inputs">
        {(value.kind === 'fraction' || value.kind === 'walk_forward') && (
          <TextField
            label="In-sample share (%)"
            hint={value.kind === 'fraction' ? 'The first part of the bars, where the grid is swept; the rest is held out.' : 'Of each window, the part the grid is swept on.'}
            type="number"
            inputMode="decimal"
            min={1}
            max={99}
            step="any"
            name="validation.in_sample_percent"
            value={value.in_sample_percent}
            error={errors['validation.in_sample_percent']}
            onInput={(event) => set('in_sample_percent', event.currentTarget.value)}
          />
        )}
        {value.kind === 'split_date' && (
          <TextField
            label="Held out from"
            hint="Bars before this day are swept; the best cell is then run from this day to the end."
            type="date"
            name="validation.split_date"
            value={value.split_date}
            error={errors['validation.split_date']}
            onInput={(event) => set('split_date', event.currentTarget.value)}
          />
        )}
        {value.kind === 'walk_forward' && (
          <TextField
            label="Number of windows"
            hint="From 2 to 50 consecutive out-of-sample windows, stitched into one equity curve."
            type="number"
            inputMode="numeric"
            min={2}
            max={50}
            step={1}
            name="validation.windows"
            value={value.windows}
            error={errors['validation.windows']}
            onInput={(event) => set('windows', event.currentTarget.value)}
          />
        )}
      </div>
    </fieldset>
  );
}
