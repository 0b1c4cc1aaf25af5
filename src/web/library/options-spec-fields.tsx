import { SelectField, TextField, TickerField, formInputs } from '../ui/form';
import type { OptionsSpecInputs, OptionsType, StrikeBy } from './options-spec-inputs';
import { STRUCTURE_CHOICES } from './options-words';

type Errors = Readonly<Record<string, string>>;

const STRIKE_BY: readonly { value: StrikeBy; label: string }[] = [
  { value: 'delta', label: 'Delta' },
  { value: 'otm', label: '% out of the money' },
];

/**
 * "Options spec" of an iron condor or vertical spread: how a backtest's entry builds its legs (DESIGN "Options
 * strategies in backtests (modeled prices)"), each field with a plain explanation. Errors keyed by the API's field
 * paths; `options_spec` is an error about the spec as a whole.
 */
export function OptionsSpecFields(props: { type: OptionsType; value: OptionsSpecInputs; errors: Errors; set: <K extends keyof OptionsSpecInputs>(key: K, next: OptionsSpecInputs[K]) => void }) {
  const { type, value, errors, set } = props;
  const { text, select } = formInputs(value, errors, set);
  const byDelta = value.options_strike_by === 'delta';
  return (
    <fieldset class="options-spec" aria-describedby={errors.options_spec ? 'options-spec-hint options-spec-error' : 'options-spec-hint'}>
      <legend>Options spec</legend>
      <p class="field__hint fieldset__hint" id="options-spec-hint">
        How each backtest entry builds its legs. Backtests price them with a model (Black–Scholes on the underlying's close), not market quotes.
        Leave these boxes empty for no spec: trade checks work without one, a backtest needs it.
      </p>
      {errors.options_spec && (
        <p class="field__error" id="options-spec-error">
          {errors.options_spec}
        </p>
      )}
      {type === 'vertical_spread' && (
        <SelectField
          label="Structure"
          hint="A credit spread collects a premium and keeps it if the price stays away from the short strike; a debit spread pays one for a move through it."
          choices={STRUCTURE_CHOICES}
          {...select('options_spec.structure')}
        />
      )}
      <fieldset class="strike-by">
        <legend>Place the short strike by</legend>
        {STRIKE_BY.map((choice) => (
          <label key={choice.value} class="check">
            <input type="radio" name="options_strike_by" value={choice.value} checked={value.options_strike_by === choice.value} onChange={() => set('options_strike_by', choice.value)} />{' '}
            {choice.label}
          </label>
        ))}
      </fieldset>
      <div class="form-grid">
        {byDelta ? (
          <TextField
            label="Short strike delta"
            inputMode="decimal"
            hint="Between 0 and 1: 0.16 sells the option the model gives a delta of 0.16 (−0.16 for a put), roughly a 16 % chance of finishing in the money. Strikes round to the listed grid."
            {...text('options_spec.short_delta')}
          />
        ) : (
          <TextField
            label="Short strike out of the money (%)"
            inputMode="decimal"
            hint="How far from the close at entry: 5 sells a put 5 % below it, or a call 5 % above. Strikes round to the listed grid ($1 below $200, $5 above)."
            {...text('options_spec.short_otm_pct')}
          />
        )}
        {type === 'iron_condor' ? (
          <TextField
            label="Wing width ($)"
            inputMode="decimal"
            hint="Dollars from each short strike to the long option that caps its loss (the wing), on the put side and the call side: 10 with a short 2,900 put buys the 2,890 put."
            {...text('options_spec.wing_width')}
          />
        ) : (
          <TextField
            label="Width ($)"
            inputMode="decimal"
            hint="Dollars between the two strikes, such as 5: a credit spread can lose at most the width less the credit, per share."
            {...text('options_spec.width')}
          />
        )}
        <TextField
          label="Days to expiry at entry"
          inputMode="numeric"
          hint="Calendar days from the entry, weekends included, such as 45: the options expire on the Friday on or before that day."
          {...text('options_spec.dte')}
        />
        <TickerField
          label="Volatility symbol (optional)"
          name="volatility_symbol"
          hint="A stored volatility index whose close ÷ 100 is the model's volatility, such as VIX. Empty: the last 20 days' realized volatility of the underlying."
          value={value.volatility_symbol}
          error={errors.volatility_symbol}
          onValue={(typed) => set('volatility_symbol', typed)}
        />
      </div>
    </fieldset>
  );
}
