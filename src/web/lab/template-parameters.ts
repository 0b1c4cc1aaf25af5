import type { StrategyTemplate, TemplateParameter } from './types';

/** Parameter values as typed, by name. */
export type ParameterInputs = Readonly<Record<string, string>>;

export function defaultParameterInputs(template: StrategyTemplate | undefined): ParameterInputs {
  return Object.fromEntries((template?.parameters ?? []).map((parameter) => [parameter.name, String(parameter.default)]));
}

export function describeRange(parameter: TemplateParameter): string {
  const kind = parameter.type === 'integer' ? 'a whole number' : 'a number';
  return `${kind} from ${parameter.min} to ${parameter.max}`;
}

/** Client-side checks of each parameter against its template's type and bounds, keyed `param.<name>`. */
export function checkParameters(template: StrategyTemplate, inputs: ParameterInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const parameter of template.parameters) {
    const text = (inputs[parameter.name] ?? '').trim();
    const value = Number(text);
    const wrong =
      text === '' || !Number.isFinite(value) || (parameter.type === 'integer' && !Number.isInteger(value)) || value < parameter.min || value > parameter.max;
    if (wrong) errors[`param.${parameter.name}`] = `Enter ${describeRange(parameter)}.`;
  }
  return errors;
}

/** `strategy_params` for `POST /api/backtest`: every parameter of the template, in catalogue order. */
export function parameterRequest(template: StrategyTemplate, inputs: ParameterInputs): { name: string; value: number }[] {
  return template.parameters.map((parameter) => ({ name: parameter.name, value: Number(inputs[parameter.name]) }));
}

/** "fast_period" → "Fast period". */
export function parameterLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
