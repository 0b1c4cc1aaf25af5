import { SelectField, TextField } from '../ui/form';
import { describeRange, parameterLabel, type ParameterInputs } from './template-parameters';
import type { StrategyTemplate } from './types';

/** The template picker with its description, and one number input per parameter of the chosen template. */
export function TemplateFields(props: {
  templates: readonly StrategyTemplate[];
  template: StrategyTemplate;
  parameters: ParameterInputs;
  errors: Readonly<Record<string, string>>;
  onTemplate: (template: StrategyTemplate) => void;
  onParameters: (next: ParameterInputs) => void;
}) {
  const { template, parameters, errors } = props;
  return (
    <>
      <SelectField
        label="Strategy template"
        name="strategy"
        error={errors.strategy}
        hint={template.description}
        value={template.id}
        choices={props.templates.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
        onChange={(id) => {
          const chosen = props.templates.find((candidate) => candidate.id === id);
          if (chosen) props.onTemplate(chosen);
        }}
      />
      <fieldset class="parameters">
        <legend>Parameters of {template.name}</legend>
        {template.parameters.length === 0 && <p class="muted">This template has no parameters.</p>}
        <div class="parameters__grid">
          {template.parameters.map((parameter) => (
            <TextField
              key={`${template.id}.${parameter.name}`}
              label={parameterLabel(parameter.name)}
              hint={`${parameter.description} ${capitalised(describeRange(parameter))}; default ${parameter.default}.`}
              type="number"
              name={`param.${parameter.name}`}
              inputMode={parameter.type === 'integer' ? 'numeric' : 'decimal'}
              min={parameter.min}
              max={parameter.max}
              step={parameter.type === 'integer' ? 1 : 'any'}
              required
              value={parameters[parameter.name] ?? ''}
              error={errors[`param.${parameter.name}`]}
              onInput={(event) => props.onParameters({ ...parameters, [parameter.name]: event.currentTarget.value })}
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
