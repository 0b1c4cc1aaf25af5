import { Field, SelectField, TextField, TickerField, formInputs } from '../ui/form';
import { RuleEditor } from './rule-editor';
import { fractionOf, isOptionsType, SIDE_CHOICES, STRATEGY_TYPES, type StrategyInputs } from './strategy-inputs';

type Errors = Readonly<Record<string, string>>;

/** "= 0.2 as stored" under a percentage while it is a number: the unit conversion in plain sight. */
function storedAs(typed: string, sign: 1 | -1): string {
  const value = Number(typed);
  if (typed.trim() === '' || !Number.isFinite(value) || value === 0) return '';
  return ` Stored as the fraction ${sign * fractionOf(Math.abs(value))}.`;
}

/** Name, description, type and the active flag. */
export function IdentityFields(props: { value: StrategyInputs; errors: Errors; set: <K extends keyof StrategyInputs>(key: K, next: StrategyInputs[K]) => void }) {
  const { value, errors, set } = props;
  const { text, select } = formInputs(value, errors, set);
  return (
    <div class="form-grid">
      <TextField label="Name" required {...text('name')} />
      <SelectField
        label="Strategy type"
        hint="Options types take legs in the compliance check, and their backtests price the legs with a model (see Options spec)."
        choices={STRATEGY_TYPES}
        {...select('strategy_type')}
      />
      <Field label="Description (optional)" error={errors.description}>
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            name="description"
            rows={2}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={value.description}
            onInput={(event) => set('description', event.currentTarget.value)}
          />
        )}
      </Field>
      <div class="field field--check">
        <label class="check">
          <input
            type="checkbox"
            name="is_active"
            aria-describedby="strategy-active-hint"
            checked={value.is_active}
            onChange={(event) => set('is_active', event.currentTarget.checked)}
          />{' '}
          Active
        </label>
        <p class="field__hint" id="strategy-active-hint">
          Only active strategies are offered when checking a trade.
        </p>
      </div>
    </div>
  );
}

/** Every rule field: what may be entered, and when to exit. Empty means no constraint. */
export function RuleFields(props: { value: StrategyInputs; errors: Errors; set: <K extends keyof StrategyInputs>(key: K, next: StrategyInputs[K]) => void }) {
  const { value, errors, set } = props;
  const { text, select } = formInputs(value, errors, set);
  const options = isOptionsType(value.strategy_type);
  return (
    <>
      <fieldset>
        <legend>Entry</legend>
        <div class="form-grid">
          <TickerField
            label="Allowed symbols"
            name="entry_symbol_allowlist"
            hint="Tickers separated by commas, such as SPX, QQQ. Empty: any symbol."
            value={value.entry_symbol_allowlist}
            error={errors.entry_symbol_allowlist}
            onValue={(typed) => set('entry_symbol_allowlist', typed)}
          />
          <TextField
            label="Max position size ($)"
            inputMode="decimal"
            hint="Most dollars one trade may commit (quantity × price). Empty: no limit."
            {...text('entry_max_position_size')}
          />
          <SelectField
            label="Allowed sides"
            hint="Which order sides may open a trade."
            choices={SIDE_CHOICES}
            {...select('entry_allowed_sides')}
          />
        </div>
        <RuleEditor
          name="entry_rule"
          label="Entry rule (optional)"
          hint="When to enter, checked on each bar's close, e.g. crosses_above(sma(close, 10), sma(close, 30)). Empty: enter on the first bar."
          value={value.entry_rule}
          error={errors.entry_rule}
          onInput={(rule) => set('entry_rule', rule)}
        />
      </fieldset>
      <fieldset>
        <legend>Exit</legend>
        <div class="form-grid">
          <TextField
            label="Profit target (%)"
            inputMode="decimal"
            hint={`Close when the gain reaches this percent of the entry price (options: of the credit, so 50 closes once half of it is kept). Empty: none.${storedAs(value.exit_profit_target_pct, 1)}`}
            {...text('exit_profit_target_pct')}
          />
          <TextField
            label="Stop loss (%)"
            inputMode="decimal"
            hint={`Close when the loss reaches this percent, typed as a positive number: 10 closes at −10 % (options: of the credit). Empty: none.${storedAs(value.exit_stop_loss_pct, -1)}`}
            {...text('exit_stop_loss_pct')}
          />
          <TextField
            label="Trailing stop (%)"
            inputMode="decimal"
            hint={`Close when a close falls this percent below the highest close since the entry: with 10, a position that rose to $120 closes below $108. It follows the price up, never down. Backtests only. Empty: none.${storedAs(value.exit_trailing_stop_pct, 1)}`}
            {...text('exit_trailing_stop_pct')}
          />
        </div>
        <RuleEditor
          name="exit_rule"
          label="Exit rule (optional)"
          hint="When to exit, checked on each bar's close after the stop loss, trailing stop and profit target, e.g. crosses_below(sma(close, 10), sma(close, 30))."
          value={value.exit_rule}
          error={errors.exit_rule}
          onInput={(rule) => set('exit_rule', rule)}
        />
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <p class="field__hint fieldset__hint">{options ? 'Checked on trades with legs.' : 'Used by the options types only (vertical spread, iron condor).'}</p>
        <div class="form-grid">
          <TextField
            label="Minimum credit ($)"
            inputMode="decimal"
            hint="Credit strategies: the least net credit per share an entry must collect (a backtest skips an entry whose modeled credit is smaller). Empty: no minimum."
            {...text('credit_min_amount')}
          />
          <TextField
            label="Max days to expiry"
            inputMode="numeric"
            hint="Trade checks: the most calendar days to expiry an entry's legs may have. Backtests: close a position once its days to expiry fall to this. Empty: no limit."
            {...text('exit_max_dte')}
          />
        </div>
      </fieldset>
    </>
  );
}
