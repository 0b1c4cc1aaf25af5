import { Field, TextField } from '../ui/form';
import { DATA_FEEDS, type MarketInputs } from './market-inputs';
import { SymbolField } from './symbol-field';
import type { DataFeed } from './types';

/** Symbol, period, starting capital and data feed: the part of the form the lab and the comparison share. */
export function MarketFields(props: {
  value: MarketInputs;
  errors: Readonly<Record<string, string>>;
  onChange: (next: MarketInputs) => void;
}) {
  const { value, errors } = props;
  const set = <K extends keyof MarketInputs>(key: K, next: MarketInputs[K]) => props.onChange({ ...value, [key]: next });
  return (
    <>
      <SymbolField value={value.symbol} error={errors.symbol} onChange={(symbol) => set('symbol', symbol)} />
      <fieldset class="period" aria-describedby={errors.period ? 'period-error' : undefined}>
        <legend>Period</legend>
        <div class="period__days">
          <TextField
            label="Start date"
            type="date"
            name="start_date"
            required
            value={value.start_date}
            error={errors.start_date}
            onInput={(event) => set('start_date', event.currentTarget.value)}
          />
          <TextField
            label="End date"
            type="date"
            name="end_date"
            required
            value={value.end_date}
            error={errors.end_date}
            onInput={(event) => set('end_date', event.currentTarget.value)}
          />
        </div>
        {errors.period && (
          <p class="field__error" id="period-error" role="alert">
            {errors.period}
          </p>
        )}
      </fieldset>
      <TextField
        label="Initial capital ($)"
        type="number"
        name="initial_capital"
        inputMode="decimal"
        min={1}
        step="any"
        required
        value={value.initial_capital}
        error={errors.initial_capital}
        onInput={(event) => set('initial_capital', event.currentTarget.value)}
      />
      <Field label="Data feed" error={errors.data_feed} hint="Daily bars either way. Delayed SIP is 15 minutes behind; real time is premium.">
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="data_feed"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={value.data_feed}
            onChange={(event) => set('data_feed', event.currentTarget.value as DataFeed)}
          >
            {DATA_FEEDS.map((feed) => (
              <option key={feed.value} value={feed.value}>
                {feed.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
