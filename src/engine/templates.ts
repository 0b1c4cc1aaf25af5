/**
 * The built-in strategy templates (the legacy catalogue) and the validation of supplied parameter values.
 * The trading rules behind each template live in rules.ts; docs/backtesting.md describes both.
 */
import { EngineError } from './engine-error.js';
import type { ResolvedParameters, StrategyTemplate, SuppliedParameter, TemplateParameter } from './types.js';

function integer(name: string, value: number, min: number, max: number, description: string): TemplateParameter {
  return { name, type: 'integer', default: value, min, max, description };
}

function decimal(name: string, value: number, min: number, max: number, description: string): TemplateParameter {
  return { name, type: 'number', default: value, min, max, description };
}

/** The catalogue, in display order. Every template is long-only: all cash in on entry, flat on exit. */
export const STRATEGY_TEMPLATES: readonly StrategyTemplate[] = deepFreeze([
  {
    id: 'buy_and_hold',
    name: 'Buy and Hold',
    description:
      'Buys with all cash at the open of the second bar (the signal is the first bar\'s close) and holds to the end of the period.',
    parameters: [],
  },
  {
    id: 'sma_crossover',
    name: 'SMA Crossover',
    description:
      'Buys when the fast simple moving average of the close crosses above the slow one; sells when it crosses below.',
    parameters: [
      integer('fast_period', 10, 2, 100, 'Bars in the fast simple moving average; must be below slow_period.'),
      integer('slow_period', 30, 5, 400, 'Bars in the slow simple moving average.'),
    ],
  },
  {
    id: 'ema_crossover',
    name: 'EMA Crossover',
    description:
      'Buys when the fast exponential moving average of the close crosses above the slow one; sells when it crosses below.',
    parameters: [
      integer('fast_period', 12, 2, 100, 'Bars in the fast exponential moving average; must be below slow_period.'),
      integer('slow_period', 26, 5, 400, 'Bars in the slow exponential moving average.'),
    ],
  },
  {
    id: 'rsi_reversion',
    name: 'RSI Mean Reversion',
    description:
      'Buys when the RSI (Wilder) of the close crosses below the oversold level; sells when it crosses above the overbought level.',
    parameters: [
      integer('period', 14, 2, 100, 'Bars in the RSI.'),
      decimal('oversold', 30, 1, 50, 'RSI level whose downward crossing is the buy signal; must be below overbought.'),
      decimal('overbought', 70, 50, 99, 'RSI level whose upward crossing is the sell signal.'),
    ],
  },
  {
    id: 'bollinger_reversion',
    name: 'Bollinger Band Reversion',
    description:
      'Buys when the close crosses below the lower Bollinger band; sells when it crosses back above the middle band (the moving average).',
    parameters: [
      integer('period', 20, 2, 200, 'Bars in the moving average and the standard deviation.'),
      decimal('std_dev', 2, 0.5, 5, 'Width of the bands in (population) standard deviations.'),
    ],
  },
  {
    id: 'macd_crossover',
    name: 'MACD Crossover',
    description:
      'Buys when the MACD line (fast EMA − slow EMA of the close) crosses above its signal line; sells when it crosses below.',
    parameters: [
      integer('fast_period', 12, 2, 100, 'Bars in the fast EMA; must be below slow_period.'),
      integer('slow_period', 26, 5, 200, 'Bars in the slow EMA.'),
      integer('signal_period', 9, 2, 100, 'Bars in the EMA of the MACD line (the signal line).'),
    ],
  },
  {
    id: 'donchian_breakout',
    name: 'Donchian Channel Breakout',
    description:
      'Buys when the close rises above the highest high of the previous entry_period bars; sells when it falls below the lowest low of the previous exit_period bars.',
    parameters: [
      integer('entry_period', 20, 2, 400, 'Bars whose highest high the close must exceed to buy.'),
      integer('exit_period', 10, 2, 400, 'Bars whose lowest low the close must fall below to sell.'),
    ],
  },
]);

/** Pairs of parameters where the first must be strictly below the second. */
const STRICTLY_BELOW: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  sma_crossover: [['fast_period', 'slow_period']],
  ema_crossover: [['fast_period', 'slow_period']],
  macd_crossover: [['fast_period', 'slow_period']],
  rsi_reversion: [['oversold', 'overbought']],
};

/** The template's cross-parameter rules: pairs [lower, upper] where the value of lower must be strictly below upper's. */
export function strictlyBelowRules(templateId: string): readonly (readonly [string, string])[] {
  return STRICTLY_BELOW[templateId] ?? [];
}

export function findTemplate(id: string): StrategyTemplate | undefined {
  return STRATEGY_TEMPLATES.find((template) => template.id === id);
}

export function defaultParameters(template: StrategyTemplate): ResolvedParameters {
  return Object.freeze(Object.fromEntries(template.parameters.map((p) => [p.name, p.default])));
}

/**
 * Validates supplied `{name, value}` pairs against the template and returns every parameter, defaults filled in.
 * Throws EngineError (code `invalid_parameter`, a 400 in the API) naming the parameter and its allowed range for: an unknown
 * name, a name given twice, a value that is not a finite number (or not an integer for an integer parameter),
 * a value outside [min, max], and a broken cross-parameter rule (fast_period below slow_period, …).
 */
export function resolveTemplateParameters(
  template: StrategyTemplate,
  supplied: readonly SuppliedParameter[],
): ResolvedParameters {
  const values: Record<string, number> = {};
  for (const { name, value } of supplied) {
    const parameter = template.parameters.find((p) => p.name === name);
    if (!parameter) {
      const allowed = template.parameters.map((p) => p.name).join(', ') || 'none';
      refuse(name, `Unknown parameter "${name}" for strategy "${template.id}"; allowed: ${allowed}.`);
    }
    if (Object.hasOwn(values, name)) refuse(name, `Parameter "${name}" is given more than once.`);
    const kind = parameter.type === 'integer' ? 'an integer' : 'a number';
    const range = `${kind} between ${parameter.min} and ${parameter.max}`;
    if (typeof value !== 'number' || !Number.isFinite(value) || (parameter.type === 'integer' && !Number.isInteger(value))) {
      refuse(name, `Parameter "${name}" must be ${range}; got ${JSON.stringify(value) ?? String(value)}.`);
    }
    if (value < parameter.min || value > parameter.max) {
      refuse(name, `Parameter "${name}" must be ${range}; got ${value}.`);
    }
    values[name] = value;
  }
  const resolved: Record<string, number> = {};
  for (const parameter of template.parameters) resolved[parameter.name] = values[parameter.name] ?? parameter.default;
  for (const [lower, upper] of STRICTLY_BELOW[template.id] ?? []) {
    const low = resolved[lower]!;
    const high = resolved[upper]!;
    if (!(low < high)) {
      refuse(lower, `Parameter "${lower}" (${low}) must be below "${upper}" (${high}).`);
    }
  }
  return Object.freeze(resolved);
}

function refuse(field: string, message: string): never {
  throw new EngineError('invalid_parameter', message, [{ field: `strategy_params.${field}`, message }]);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
