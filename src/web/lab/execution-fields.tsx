import { SelectField, TextField, formInputs } from '../ui/form';
import { COST_PRESETS, CUSTOM_PRESET, presetOf, SIZING_MODES, withPreset, type ExecutionInputs } from './execution-inputs';

const PRESET_CHOICES = [...COST_PRESETS.map((preset) => ({ value: preset.id, label: preset.label })), { value: CUSTOM_PRESET, label: 'Custom' }];

const SIZING_VALUE: Readonly<Record<Exclude<ExecutionInputs['sizing_mode'], 'all_in'>, { label: string; hint: string }>> = {
  percent_of_equity: { label: 'Percent of equity (%)', hint: 'Each buy commits this share of the equity at the signal’s close, such as 25.' },
  fixed_amount: { label: 'Amount per trade ($)', hint: 'Each buy commits this many dollars, or the cash if less.' },
  fixed_shares: { label: 'Shares per trade', hint: 'Each buy takes this many shares, or as many as the cash affords.' },
};

/**
 * "Costs and sizing": a cost preset and its four editable fields, the sizing, the exits and the benchmark — the
 * execution settings every lab, comparison and Optimize run sends (execution-inputs.ts), and a library backtest of an
 * equity strategy (library/backtest-execution-fields.tsx).
 */
export function ExecutionFields(props: { value: ExecutionInputs; errors: Readonly<Record<string, string>>; onChange: (next: ExecutionInputs) => void }) {
  const { value, errors } = props;
  const set = <K extends keyof ExecutionInputs>(key: K, next: ExecutionInputs[K]) => props.onChange({ ...value, [key]: next });
  const { text, select } = formInputs(value, errors, set);
  const number = { type: 'number', inputMode: 'decimal', min: 0, step: 'any' } as const;
  const sizing = value.sizing_mode === 'all_in' ? undefined : SIZING_VALUE[value.sizing_mode];
  return (
    <fieldset class="execution-fields">
      <legend>Costs and sizing</legend>
      <div class="form-grid wide">
        <SelectField
          label="Trading costs"
          name="cost_preset"
          hint="A preset fills the four fields beside it; edit them for your broker."
          value={presetOf(value)}
          choices={PRESET_CHOICES}
          onChange={(id) => props.onChange(withPreset(value, id))}
        />
        <TextField label="Commission per share ($)" {...number} {...text('commission_per_share')} />
        <TextField label="Commission (% of value)" hint="Of each fill’s value: 0.1 is 0.1 %." {...number} max={100} {...text('commission_pct')} />
        <TextField label="Minimum per order ($)" hint="The least one order pays; alone it is a flat fee." {...number} {...text('commission_min')} />
        <TextField label="Slippage (bp)" hint="Basis points off the open against you, never past the bar’s high or low." {...number} max={1000} {...text('slippage_bps')} />
        <SelectField label="Position size" choices={SIZING_MODES} {...select('sizing_mode')} />
        {sizing && <TextField label={sizing.label} hint={sizing.hint} {...number} {...text('sizing_value')} />}
        <TextField label="Stop loss (%)" hint="Sell when a close is this percent below the entry fill: 10 sells at −10 %. Empty: none." {...number} {...text('stop_loss_pct')} />
        <TextField label="Take profit (%)" hint="Sell when a close is this percent above the entry fill. Empty: none." {...number} {...text('take_profit_pct')} />
        <TextField
          label="Trailing stop (%)"
          hint="Sell when a close falls this percent below the highest close since the entry. Empty: none."
          {...number}
          {...text('trailing_stop_pct')}
        />
        <TextField
          label="Benchmark"
          hint="A ticker to hold beside the strategy, bought at the first close. Empty: the backtested symbol (buy and hold)."
          autoComplete="off"
          spellcheck={false}
          {...text('benchmark')}
        />
      </div>
    </fieldset>
  );
}
