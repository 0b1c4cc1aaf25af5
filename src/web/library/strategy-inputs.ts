import { decimalOf, fractionOf, percentOf } from './decimal-text';
import { ruleProblem } from '../../strategies/grammar/index';
import { isOptionsType, normaliseSymbols } from './strategy-labels';
import { checkSpecInputs, EMPTY_SPEC_INPUTS, sameSpec, specInputsOf, specOf, volatilitySymbolOf, type OptionsSpecInputs } from './options-spec-inputs';
import type { AllowedSides, StrategyFields, StrategyType, StrategyView } from './types';

export { fractionOf, percentOf } from './decimal-text';
export { isOptionsType, normaliseSymbols, SIDE_CHOICES, STRATEGY_TYPES, strategyTypeLabel } from './strategy-labels';

/**
 * The strategy form's state, as typed (strings, so a half-typed number stays in its box), and the pure
 * conversions between it and the API: percent fields are typed as percentages and sent as the fractions the
 * API stores (20 → 0.2; a stop loss of 50 → -0.5); empty means "no constraint" (null).
 */
export interface StrategyInputs extends OptionsSpecInputs {
  readonly name: string;
  readonly description: string;
  readonly strategy_type: StrategyType;
  readonly is_active: boolean;
  readonly entry_symbol_allowlist: string;
  readonly entry_max_position_size: string;
  readonly entry_allowed_sides: AllowedSides | '';
  readonly credit_min_amount: string;
  /** Percent of the entry price (or of the credit received), e.g. "20". */
  readonly exit_profit_target_pct: string;
  /** Percent lost, e.g. "50" (or "-50"): sent as -0.5. */
  readonly exit_stop_loss_pct: string;
  /** Percent below the highest close since the entry, e.g. "10": sent as 0.1. */
  readonly exit_trailing_stop_pct: string;
  readonly exit_max_dte: string;
  readonly entry_rule: string;
  readonly exit_rule: string;
}

export const EMPTY_INPUTS: StrategyInputs = {
  name: '',
  description: '',
  strategy_type: 'equity_long',
  is_active: true,
  entry_symbol_allowlist: '',
  entry_max_position_size: '',
  entry_allowed_sides: '',
  credit_min_amount: '',
  exit_profit_target_pct: '',
  exit_stop_loss_pct: '',
  exit_trailing_stop_pct: '',
  exit_max_dte: '',
  entry_rule: '',
  exit_rule: '',
  ...EMPTY_SPEC_INPUTS,
};

/** The form's controls by the API's field names, where a 400's `details[].field` is placed (`options_spec`: the spec's fieldset). */
export const STRATEGY_CONTROLS: ReadonlySet<string> = new Set([...Object.keys(EMPTY_INPUTS), 'options_spec']);

const numberText = (value: number | null) => (value === null ? '' : String(value));

export function inputsOf(strategy: StrategyView): StrategyInputs {
  return {
    name: strategy.name,
    description: strategy.description,
    strategy_type: strategy.strategy_type,
    is_active: strategy.is_active,
    entry_symbol_allowlist: strategy.entry_symbol_allowlist ?? '',
    entry_max_position_size: numberText(strategy.entry_max_position_size),
    entry_allowed_sides: strategy.entry_allowed_sides ?? '',
    credit_min_amount: numberText(strategy.credit_min_amount),
    exit_profit_target_pct: strategy.exit_profit_target_pct === null ? '' : percentOf(strategy.exit_profit_target_pct),
    exit_stop_loss_pct: strategy.exit_stop_loss_pct === null ? '' : percentOf(-strategy.exit_stop_loss_pct),
    exit_trailing_stop_pct: strategy.exit_trailing_stop_pct === null ? '' : percentOf(strategy.exit_trailing_stop_pct),
    exit_max_dte: numberText(strategy.exit_max_dte),
    entry_rule: strategy.entry_rule ?? '',
    exit_rule: strategy.exit_rule ?? '',
    ...specInputsOf(strategy.options_spec, strategy.volatility_symbol),
  };
}

const number = (typed: string) => (typed.trim() === '' ? null : decimalOf(typed));

/** The request fields of the form: every field, null where empty. Assumes `checkStrategyInputs` found nothing. */
export function fieldsOf(inputs: StrategyInputs): StrategyFields {
  const allowlist = normaliseSymbols(inputs.entry_symbol_allowlist);
  const target = number(inputs.exit_profit_target_pct);
  const stop = number(inputs.exit_stop_loss_pct);
  const trailing = number(inputs.exit_trailing_stop_pct);
  return {
    name: inputs.name.trim(),
    description: inputs.description.trim(),
    strategy_type: inputs.strategy_type,
    is_active: inputs.is_active,
    entry_symbol_allowlist: allowlist.length > 0 ? allowlist.join(',') : null,
    entry_max_position_size: number(inputs.entry_max_position_size),
    entry_allowed_sides: inputs.entry_allowed_sides === '' ? null : inputs.entry_allowed_sides,
    credit_min_amount: number(inputs.credit_min_amount),
    exit_profit_target_pct: target === null ? null : fractionOf(target),
    exit_stop_loss_pct: stop === null ? null : -fractionOf(Math.abs(stop)),
    exit_trailing_stop_pct: trailing === null ? null : fractionOf(trailing),
    exit_max_dte: number(inputs.exit_max_dte),
    // As typed (not trimmed), so a column the server reports is the column the editor showed.
    entry_rule: inputs.entry_rule.trim() === '' ? null : inputs.entry_rule,
    exit_rule: inputs.exit_rule.trim() === '' ? null : inputs.exit_rule,
    // The spec belongs to the options types: another type sends none (and an edit to it clears a stored one).
    options_spec: isOptionsType(inputs.strategy_type) ? specOf(inputs.strategy_type, inputs) : null,
    volatility_symbol: isOptionsType(inputs.strategy_type) ? volatilitySymbolOf(inputs) : null,
  };
}

/** The create body: the fields that are set (the server's defaults apply to the rest). */
export function createBody(inputs: StrategyInputs): Partial<StrategyFields> {
  return Object.fromEntries(Object.entries(fieldsOf(inputs)).filter(([, value]) => value !== null));
}

/**
 * The PATCH body: only what changed, with null clearing a rule field. Empty when nothing changed. A field whose
 * box still holds what the form showed for the stored value is left out, so a value the form cannot show
 * exactly (a fraction with more than 12 significant digits, a description with surrounding spaces) is not
 * rewritten by an edit of another field.
 */
export function patchBody(inputs: StrategyInputs, saved: StrategyView): Partial<StrategyFields> {
  const shown = inputsOf(saved);
  const shownFields = fieldsOf(shown);
  const sent = fieldsOf(inputs);
  // The spec's fields come from several boxes (and the type): compared as sent, not box by box.
  const changed = (key: keyof StrategyFields) =>
    key === 'options_spec'
      ? !sameSpec(sent.options_spec, shownFields.options_spec) && !sameSpec(sent.options_spec, saved.options_spec)
      : key === 'volatility_symbol'
        ? sent.volatility_symbol !== shownFields.volatility_symbol && sent.volatility_symbol !== saved.volatility_symbol
        : inputs[key as keyof StrategyInputs] !== shown[key as keyof StrategyInputs] && saved[key] !== sent[key];
  return Object.fromEntries(Object.entries(sent).filter(([key]) => changed(key as keyof StrategyFields)));
}

type Errors = Record<string, string>;

/**
 * The server's limits (src/strategies/strategies.schema.ts, the market data's ticker pattern), copied: importing
 * the schema as a value would bundle its schema library. library-logic.test.ts checks they match.
 */
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 2000;
export const MAX_DTE = 3650;
export const TICKER = /^\^?[A-Z][A-Z0-9]{0,9}([.-][A-Z0-9]{1,5})?$/;

function checkNumber(errors: Errors, key: keyof StrategyInputs, typed: string, test: (value: number) => boolean, message: string): void {
  if (typed.trim() === '') return;
  const value = decimalOf(typed);
  if (!Number.isFinite(value) || !test(value)) errors[key] = message;
}

/**
 * Client-side checks, keyed by the API's field names (so the server's `details[].field` lands on the same
 * control); the rules are checked by the grammar the server runs. The server checks everything again.
 */
export function checkStrategyInputs(inputs: StrategyInputs): Errors {
  const errors: Errors = {};
  if (!inputs.name.trim()) errors.name = 'Give the strategy a name, such as “SPX trend”.';
  else if (inputs.name.trim().length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;
  if (inputs.description.length > DESCRIPTION_MAX) errors.description = `Use at most ${DESCRIPTION_MAX} characters.`;
  const badSymbol = normaliseSymbols(inputs.entry_symbol_allowlist).find((symbol) => !TICKER.test(symbol));
  if (badSymbol) errors.entry_symbol_allowlist = `“${badSymbol}” is not a ticker such as SPX, AAPL or BRK.B; separate tickers with commas.`;
  checkNumber(errors, 'entry_max_position_size', inputs.entry_max_position_size, (value) => value > 0, 'Enter a dollar amount above 0, or leave it empty for no limit.');
  checkNumber(errors, 'credit_min_amount', inputs.credit_min_amount, (value) => value > 0, 'Enter a dollar amount above 0, or leave it empty.');
  checkNumber(errors, 'exit_profit_target_pct', inputs.exit_profit_target_pct, (value) => value > 0 && value <= 1000, 'Enter a percentage above 0 and at most 1000.');
  checkNumber(errors, 'exit_stop_loss_pct', inputs.exit_stop_loss_pct, (value) => value !== 0 && Math.abs(value) <= 100, 'Enter the loss as a percentage from 0.01 to 100, such as 10.');
  checkNumber(errors, 'exit_trailing_stop_pct', inputs.exit_trailing_stop_pct, (value) => value > 0 && value < 100, 'Enter a percentage above 0 and below 100, such as 10.');
  checkNumber(errors, 'exit_max_dte', inputs.exit_max_dte, (value) => Number.isInteger(value) && value > 0 && value <= MAX_DTE, `Enter a whole number of days from 1 to ${MAX_DTE}.`);
  for (const key of ['entry_rule', 'exit_rule'] as const) {
    const problem = inputs[key].trim() === '' ? null : ruleProblem(inputs[key]);
    if (problem) errors[key] = problem.message;
  }
  if (isOptionsType(inputs.strategy_type)) Object.assign(errors, checkSpecInputs(inputs.strategy_type, inputs, (symbol) => TICKER.test(symbol)));
  return errors;
}
