import { SelectField, TextField } from '../ui/form';
import { MAX_CELLS, cellCount, defaultAxis, describeCellCount, type AxisInputs } from './sweep-grid';
import { OBJECTIVE_LABELS } from './sweep-objectives';
import { OBJECTIVES, type Objective } from './sweep-types';
import { describeRange, parameterLabel } from './template-parameters';
import type { StrategyTemplate } from './types';
import { formatCount } from '../ui/format';

const NO_SECOND = '';

/**
 * The template's parameters to vary: the first, an optional second, each with its minimum, maximum and step,
 * and the size of the grid as it is typed (refused above 10,000 cells before anything is sent).
 */
export function GridFields(props: {
  template: StrategyTemplate;
  axes: readonly AxisInputs[];
  errors: Readonly<Record<string, string>>;
  onAxes: (next: readonly AxisInputs[]) => void;
}) {
  const { template, axes, errors } = props;
  const choices = template.parameters.map((parameter) => ({ value: parameter.name, label: parameterLabel(parameter.name) }));
  const choose = (index: number, name: string) => {
    const parameter = template.parameters.find((candidate) => candidate.name === name);
    const next = [...axes];
    if (!parameter) next.splice(index, 1);
    else next[index] = defaultAxis(parameter);
    props.onAxes(next);
  };
  const total = cellCount(axes);
  const gridError = errors.grid;
  return (
    // Focusable and marked invalid when the grid as a whole is refused (too many cells), so that focus goes to it.
    <fieldset class="sweep-grid" tabIndex={gridError ? -1 : undefined} aria-invalid={gridError ? true : undefined} aria-describedby={gridError ? 'grid-error' : undefined}>
      <legend>Parameters to vary</legend>
      {template.parameters.length === 0 && <p class="muted">This template has no parameters to vary.</p>}
      {axes.map((axis, index) => (
        <AxisFields
          key={`${template.id}.${index}.${axis.name}`}
          template={template}
          axis={axis}
          index={index}
          choices={index === 0 ? choices : [{ value: NO_SECOND, label: 'None: one parameter only' }, ...choices.filter((choice) => choice.value !== axes[0]?.name)]}
          errors={errors}
          onChoose={(name) => choose(index, name)}
          onAxis={(next) => props.onAxes(axes.map((candidate, at) => (at === index ? next : candidate)))}
        />
      ))}
      {axes.length === 1 && template.parameters.length > 1 && (
        <SelectField
          label="Second parameter"
          name="axis.1"
          value={NO_SECOND}
          choices={[{ value: NO_SECOND, label: 'None: one parameter only' }, ...choices.filter((choice) => choice.value !== axes[0]?.name)]}
          onChange={(name) => choose(1, name)}
        />
      )}
      <p class="sweep-grid__count">
        <output name="cell-count" aria-live="polite" class={total > MAX_CELLS ? 'sweep-grid__count--over' : ''}>
          {axes.length > 0 && `${describeCellCount(axes)} (at most ${formatCount(MAX_CELLS)})`}
        </output>
      </p>
      {gridError && (
        <p class="field__error" id="grid-error" role="alert">
          {gridError}
        </p>
      )}
    </fieldset>
  );
}

function AxisFields(props: {
  template: StrategyTemplate;
  axis: AxisInputs;
  index: number;
  choices: readonly { value: string; label: string }[];
  errors: Readonly<Record<string, string>>;
  onChoose: (name: string) => void;
  onAxis: (next: AxisInputs) => void;
}) {
  const { axis, errors } = props;
  const parameter = props.template.parameters.find((candidate) => candidate.name === axis.name);
  const key = `grid.${axis.name}`;
  const label = parameterLabel(axis.name);
  const whole = parameter?.type === 'integer';
  const number = (part: 'min' | 'max' | 'step', text: string) => (
    <TextField
      label={`${label}: ${text}`}
      type="number"
      name={`${key}.${part}`}
      inputMode={whole ? 'numeric' : 'decimal'}
      step={whole ? 1 : 'any'}
      required
      value={axis[part]}
      error={errors[`${key}.${part}`]}
      onInput={(event) => props.onAxis({ ...axis, [part]: event.currentTarget.value })}
    />
  );
  return (
    <div class="sweep-axis">
      <SelectField
        label={props.index === 0 ? 'First parameter' : 'Second parameter'}
        name={`axis.${props.index}`}
        hint={parameter ? `${parameter.description} ${capitalised(describeRange(parameter))}.` : undefined}
        error={errors[key]}
        value={axis.name}
        choices={props.choices}
        onChange={props.onChoose}
      />
      <div class="sweep-axis__range">
        {number('min', 'from')}
        {number('max', 'to')}
        {number('step', 'step')}
      </div>
    </div>
  );
}

export function ObjectiveField(props: { value: Objective; error: string | undefined; onChange: (next: Objective) => void }) {
  return (
    <SelectField
      label="Objective"
      name="objective"
      hint="The figure the heat map colours and the best cell maximises."
      error={props.error}
      value={props.value}
      choices={OBJECTIVES.map((objective) => ({ value: objective, label: OBJECTIVE_LABELS[objective] }))}
      onChange={props.onChange}
    />
  );
}

/** The minimum of round-trip trades a cell needs to rank: thinner cells are marked and never shown as best. */
export function MinTradesField(props: { value: string; error: string | undefined; onChange: (next: string) => void }) {
  const hint = 'A cell with fewer round-trip trades is marked thin and ranked below every cell with enough: a few lucky trades cannot make the best cell.';
  return (
    <TextField
      type="number"
      inputMode="numeric"
      min={0}
      step={1}
      required
      label="Minimum trades"
      name="min_trades"
      hint={hint}
      value={props.value}
      error={props.error}
      onInput={(event) => props.onChange(event.currentTarget.value)}
    />
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
