import { ExecutionFields } from '../lab/execution-fields';
import { TextField } from '../ui/form';
import type { LibraryExecutionInputs } from './backtest-execution';
import { isOptionsType } from './strategy-labels';
import type { StrategyType } from './types';

/**
 * The execution settings of a library backtest: the lab's "Costs and sizing" for an equity strategy; for an options
 * strategy only the commission per contract (its size and exits are the strategy's own, docs/backtesting.md "Over HTTP").
 */
export function LibraryExecutionFields(props: {
  type: StrategyType;
  value: LibraryExecutionInputs;
  errors: Readonly<Record<string, string>>;
  onChange: (next: LibraryExecutionInputs) => void;
}) {
  const { value, errors, onChange } = props;
  if (!isOptionsType(props.type)) return <ExecutionFields value={value.execution} errors={errors} onChange={(execution) => onChange({ ...value, execution })} />;
  return (
    <fieldset class="execution-fields">
      <legend>Costs</legend>
      <div class="form-grid wide">
        <TextField
          label="Commission per contract ($)"
          hint="Paid per leg and contract on each opening and closing fill, not at expiry, such as 0.65."
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          name="commission_per_contract"
          value={value.commission_per_contract}
          error={errors.commission_per_contract}
          onInput={(event: { currentTarget: HTMLInputElement }) => onChange({ ...value, commission_per_contract: event.currentTarget.value })}
        />
      </div>
    </fieldset>
  );
}
