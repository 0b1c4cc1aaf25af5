import { Field, TextField } from '../ui/form';
import { RuleEditor } from './rule-editor';
import { fractionOf, isOptionsType, SIDE_CHOICES, STRATEGY_TYPES, type StrategyInputs } from './strategy-inputs';
import type { AllowedSides, StrategyType } from './types';

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
  return (
    <div class="form-grid">
      <TextField label="Name" name="name" required value={value.name} error={errors.name} onInput={(event) => set('name', event.currentTarget.value)} />
      <Field label="Strategy type" error={errors.strategy_type} hint="Options types take legs in the compliance check; backtests replay equity types only.">
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="strategy_type"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={value.strategy_type}
            onChange={(event) => set('strategy_type', event.currentTarget.value as StrategyType)}
          >
            {STRATEGY_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        )}
      </Field>
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
  const options = isOptionsType(value.strategy_type);
  return (
    <>
      <fieldset>
        <legend>Entry</legend>
        <div class="form-grid">
          <TextField
            label="Allowed symbols"
            name="entry_symbol_allowlist"
            autoCapitalize="characters"
            autoComplete="off"
            spellcheck={false}
            hint="Tickers separated by commas, such as SPX, QQQ. Empty: any symbol."
            value={value.entry_symbol_allowlist}
            error={errors.entry_symbol_allowlist}
            onInput={(event) => set('entry_symbol_allowlist', event.currentTarget.value.toUpperCase())}
          />
          <TextField
            label="Max position size ($)"
            name="entry_max_position_size"
            inputMode="decimal"
            hint="Most dollars one trade may commit (quantity × price). Empty: no limit."
            value={value.entry_max_position_size}
            error={errors.entry_max_position_size}
            onInput={(event) => set('entry_max_position_size', event.currentTarget.value)}
          />
          <Field label="Allowed sides" error={errors.entry_allowed_sides} hint="Which order sides may open a trade.">
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                name="entry_allowed_sides"
                aria-describedby={describedBy}
                aria-invalid={invalid}
                value={value.entry_allowed_sides}
                onChange={(event) => set('entry_allowed_sides', event.currentTarget.value as AllowedSides | '')}
              >
                {SIDE_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
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
            name="exit_profit_target_pct"
            inputMode="decimal"
            hint={`Close when the gain reaches this percent of the entry price (of the credit received, for credit strategies). Empty: none.${storedAs(value.exit_profit_target_pct, 1)}`}
            value={value.exit_profit_target_pct}
            error={errors.exit_profit_target_pct}
            onInput={(event) => set('exit_profit_target_pct', event.currentTarget.value)}
          />
          <TextField
            label="Stop loss (%)"
            name="exit_stop_loss_pct"
            inputMode="decimal"
            hint={`Close when the loss reaches this percent, typed as a positive number: 10 closes at −10 %. Empty: none.${storedAs(value.exit_stop_loss_pct, -1)}`}
            value={value.exit_stop_loss_pct}
            error={errors.exit_stop_loss_pct}
            onInput={(event) => set('exit_stop_loss_pct', event.currentTarget.value)}
          />
        </div>
        <RuleEditor
          name="exit_rule"
          label="Exit rule (optional)"
          hint="When to exit, checked on each bar's close after the stop loss and profit target, e.g. crosses_below(sma(close, 10), sma(close, 30))."
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
            name="credit_min_amount"
            inputMode="decimal"
            hint="Credit strategies: the least net credit an entry must collect. Empty: no minimum."
            value={value.credit_min_amount}
            error={errors.credit_min_amount}
            onInput={(event) => set('credit_min_amount', event.currentTarget.value)}
          />
          <TextField
            label="Max days to expiry"
            name="exit_max_dte"
            inputMode="numeric"
            hint="The most days to expiration an entry's legs may have. Empty: no limit."
            value={value.exit_max_dte}
            error={errors.exit_max_dte}
            onInput={(event) => set('exit_max_dte', event.currentTarget.value)}
          />
        </div>
      </fieldset>
    </>
  );
}
