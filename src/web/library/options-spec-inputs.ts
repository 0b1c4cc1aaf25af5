import { formatCount } from '../ui/format';
import { decimalOf, fractionOf, percentOf } from './decimal-text';
import type { OptionsSpec, VerticalStructure } from './types';

/**
 * The "Options spec" of an iron condor or vertical spread strategy as the form holds it (strings, as typed), and
 * the pure conversions between it and the API's `options_spec` and `volatility_symbol` (DESIGN "Options strategies
 * in backtests (modeled prices)"). Keys are the API's field paths (`options_spec.dte`), so a refusal's
 * `details[].field` lands on its control as it is; `options_strike_by` is the form's own choice between the two
 * ways of placing the short strike.
 */
export interface OptionsSpecInputs {
  /** Vertical spreads only. */
  readonly 'options_spec.structure': VerticalStructure;
  readonly options_strike_by: 'delta' | 'otm';
  /** A delta as quoted, e.g. "0.16". */
  readonly 'options_spec.short_delta': string;
  /** Percent out of the money, e.g. "5": sent as the fraction 0.05. */
  readonly 'options_spec.short_otm_pct': string;
  /** Dollars between a vertical's two strikes. */
  readonly 'options_spec.width': string;
  /** Dollars between each short strike of an iron condor and its wing. */
  readonly 'options_spec.wing_width': string;
  /** Calendar days to expiry at the entry. */
  readonly 'options_spec.dte': string;
  readonly volatility_symbol: string;
}

export type StrikeBy = OptionsSpecInputs['options_strike_by'];

export const EMPTY_SPEC_INPUTS: OptionsSpecInputs = {
  'options_spec.structure': 'put_credit',
  options_strike_by: 'delta',
  'options_spec.short_delta': '',
  'options_spec.short_otm_pct': '',
  'options_spec.width': '',
  'options_spec.wing_width': '',
  'options_spec.dte': '',
  volatility_symbol: '',
};

/** The request field each control of the spec stands for, in the order of the form. */
export const SPEC_CONTROLS = ['options_spec', ...(Object.keys(EMPTY_SPEC_INPUTS) as (keyof OptionsSpecInputs)[])] as const;

export type OptionsType = 'iron_condor' | 'vertical_spread';

/** The API's bounds (src/strategies/options-spec.ts; options-logic.test.ts checks they match). */
export const MAX_SPEC_DTE = 3650;
export const MAX_SPEC_WIDTH = 1000;
/** An iron condor sells a put and a call: a delta of 0.5 or more would put the short strikes past each other. */
export const MAX_CONDOR_DELTA = 0.5;

/** The form's boxes for a stored spec (null: empty boxes) and volatility symbol. */
export function specInputsOf(spec: OptionsSpec | null, volatilitySymbol: string | null): OptionsSpecInputs {
  if (!spec) return { ...EMPTY_SPEC_INPUTS, volatility_symbol: volatilitySymbol ?? '' };
  const width = 'wing_width' in spec ? { 'options_spec.wing_width': String(spec.wing_width) } : { 'options_spec.width': String(spec.width) };
  return {
    ...EMPTY_SPEC_INPUTS,
    ...('structure' in spec ? { 'options_spec.structure': spec.structure } : {}),
    options_strike_by: spec.short_otm_pct !== undefined ? 'otm' : 'delta',
    'options_spec.short_delta': spec.short_delta === undefined ? '' : String(spec.short_delta),
    'options_spec.short_otm_pct': spec.short_otm_pct === undefined ? '' : percentOf(spec.short_otm_pct),
    ...width,
    'options_spec.dte': String(spec.dte),
    volatility_symbol: volatilitySymbol ?? '',
  };
}

/** The boxes of the spec that apply to this type and strike choice, by key. */
function usedKeys(type: OptionsType, inputs: OptionsSpecInputs) {
  return {
    short: inputs.options_strike_by === 'delta' ? ('options_spec.short_delta' as const) : ('options_spec.short_otm_pct' as const),
    width: type === 'iron_condor' ? ('options_spec.wing_width' as const) : ('options_spec.width' as const),
    dte: 'options_spec.dte' as const,
  };
}

/** No spec: every box that would make one is empty (the strategy still checks trades; a backtest needs a spec). */
export function specIsEmpty(type: OptionsType, inputs: OptionsSpecInputs): boolean {
  return Object.values(usedKeys(type, inputs)).every((key) => inputs[key].trim() === '');
}

/** The `options_spec` the form sends: null when its boxes are empty. Assumes `checkSpecInputs` found nothing. */
export function specOf(type: OptionsType, inputs: OptionsSpecInputs): OptionsSpec | null {
  if (specIsEmpty(type, inputs)) return null;
  const keys = usedKeys(type, inputs);
  const short =
    inputs.options_strike_by === 'delta'
      ? { short_delta: decimalOf(inputs[keys.short]) }
      : { short_otm_pct: fractionOf(decimalOf(inputs[keys.short])) };
  const dte = decimalOf(inputs[keys.dte]);
  const width = decimalOf(inputs[keys.width]);
  return type === 'iron_condor' ? { ...short, wing_width: width, dte } : { structure: inputs['options_spec.structure'], ...short, width, dte };
}

/** The volatility symbol the form sends: upper case, null when empty. */
export function volatilitySymbolOf(inputs: OptionsSpecInputs): string | null {
  const symbol = inputs.volatility_symbol.trim().toUpperCase();
  return symbol === '' ? null : symbol;
}

/** The same spec, whatever the order of its keys (the server's answer and the form's body list them differently). */
export function sameSpec(a: OptionsSpec | null | undefined, b: OptionsSpec | null | undefined): boolean {
  const canonical = (spec: OptionsSpec | null | undefined) => JSON.stringify(spec ? Object.entries(spec).sort(([x], [y]) => (x < y ? -1 : 1)) : null);
  return canonical(a) === canonical(b);
}

type Errors = Record<string, string>;

/**
 * The checks the API makes of a spec (its bounds copied), keyed by the control's field path. An empty spec is no
 * error; a spec begun needs every box. `isTicker` is the form's ticker check for the volatility symbol.
 */
export function checkSpecInputs(type: OptionsType, inputs: OptionsSpecInputs, isTicker: (symbol: string) => boolean): Errors {
  const errors: Errors = {};
  const symbol = volatilitySymbolOf(inputs);
  if (symbol !== null && !isTicker(symbol)) errors.volatility_symbol = `“${symbol}” is not a ticker such as VIX.`;
  if (specIsEmpty(type, inputs)) return errors;
  const keys = usedKeys(type, inputs);
  const read = (key: keyof OptionsSpecInputs, missing: string, test: (value: number) => boolean, wrong: string) => {
    const typed = inputs[key].trim();
    const value = decimalOf(typed);
    if (typed === '') errors[key] = missing;
    else if (!Number.isFinite(value) || !test(value)) errors[key] = wrong;
  };
  if (keys.short === 'options_spec.short_delta') {
    const most = type === 'iron_condor' ? MAX_CONDOR_DELTA : 1;
    read(keys.short, 'Enter the short strike’s delta, such as 0.16.', (value) => value > 0 && value < most, `Enter a delta above 0 and below ${most}, such as 0.16.`);
  } else {
    read(keys.short, 'Enter how far out of the money the short strike is, such as 5.', (value) => value > 0 && value < 100, 'Enter a percentage above 0 and below 100, such as 5.');
  }
  read(keys.width, 'Enter the width in dollars, such as 5.', (value) => value > 0 && value <= MAX_SPEC_WIDTH, `Enter a width in dollars above 0 and at most ${formatCount(MAX_SPEC_WIDTH)}, such as 5.`);
  read(keys.dte, 'Enter the days to expiry, such as 45.', (value) => Number.isInteger(value) && value >= 1 && value <= MAX_SPEC_DTE, `Enter a whole number of days from 1 to ${MAX_SPEC_DTE}.`);
  return errors;
}
