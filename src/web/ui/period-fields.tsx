import { TextField, formInputs } from './form';

export interface Period {
  readonly start_date: string;
  readonly end_date: string;
}

const DAYS = [
  ['start_date', 'Start date'],
  ['end_date', 'End date'],
] as const;

/**
 * A backtest's first and last day, as a "Period" group: a date input each, and below them the refusal that
 * concerns the period as a whole (`errors.period`, shown with the id `errorId`).
 */
export function PeriodFields(props: { value: Period; errors: Readonly<Record<string, string>>; errorId: string; onChange: (key: keyof Period, day: string) => void }) {
  const { errors, errorId } = props;
  const { text } = formInputs(props.value, errors, props.onChange);
  return (
    <fieldset class="period" aria-describedby={errors.period ? errorId : undefined}>
      <legend>Period</legend>
      <div class="period__days">
        {DAYS.map(([key, label]) => (
          <TextField key={key} label={label} type="date" required {...text(key)} />
        ))}
      </div>
      {errors.period && (
        <p class="field__error" id={errorId} role="alert">
          {errors.period}
        </p>
      )}
    </fieldset>
  );
}
